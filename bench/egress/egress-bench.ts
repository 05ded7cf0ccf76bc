import { execFile } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { startEgressProxy } from '../../src/adapters/egress-proxy/egress-proxy';
import { mappedResolver } from '../../src/adapters/egress-proxy/host-resolver';
import { silentLogger } from '../../src/core/ports/logger';

/**
 * `npx tsx bench/egress/egress-bench.ts [requests]` (default 300): what the run's egress proxy
 * (X2) adds to one HTTP request, measured against the same request made directly, in the same
 * run, on loopback only. In-process (node's http client, a fresh connection each time, so the
 * proxy's per-request work is what differs) and with the real curl (a process per request, as
 * an agent's command makes them; a tenth as many). The decision is an instant allow: what a
 * host already decided for the run costs.
 */
const DOMAIN = 'bench.egress.test';

async function main(requests: number): Promise<void> {
  const site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const sitePort = (site.address() as AddressInfo).port;
  const proxy = await startEgressProxy({
    authorizeHost: async () => ({ allowed: true }),
    resolve: mappedResolver({ [DOMAIN]: '127.0.0.1' }),
    forbiddenPorts: [],
    log: silentLogger,
  });
  try {
    const direct = () => get({ host: '127.0.0.1', port: sitePort, path: '/', headers: { host: DOMAIN } });
    const proxied = () =>
      get({
        host: '127.0.0.1',
        port: proxy.port,
        path: `http://${DOMAIN}:${sitePort}/`,
        headers: { host: DOMAIN },
      });
    const curlDirect = () =>
      curl(['--resolve', `${DOMAIN}:${sitePort}:127.0.0.1`, `http://${DOMAIN}:${sitePort}/`]);
    const curlProxied = () =>
      curl(['--proxy', `http://127.0.0.1:${proxy.port}`, '--proxytunnel', `http://${DOMAIN}:${sitePort}/`]);

    for (const [name, baseline, measured, count] of [
      ['in-process HTTP (absolute URI)', direct, proxied, requests],
      ['curl, CONNECT tunnel', curlDirect, curlProxied, Math.max(10, Math.round(requests / 10))],
    ] as const) {
      await timed(baseline, 5);
      await timed(measured, 5);
      // Interleaved halves, so a change in the machine's load falls on both alike.
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < count; i += 1) {
        a.push(...(await timed(baseline, 1)));
        b.push(...(await timed(measured, 1)));
      }
      const [pa, pb] = [percentile(a, 50), percentile(b, 50)];
      console.log(
        `${name}: ${count} requests each; p50 direct ${pa.toFixed(2)} ms, through the proxy ${pb.toFixed(2)} ms ` +
          `(ratio ${(pb / pa).toFixed(2)}, +${(pb - pa).toFixed(2)} ms); p95 ${percentile(a, 95).toFixed(2)} / ${percentile(b, 95).toFixed(2)} ms`,
      );
    }
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  }
}

async function timed(work: () => Promise<void>, times: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const start = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

function get(options: { host: string; port: number; path: string; headers: Record<string, string> }) {
  return new Promise<void>((resolve, reject) => {
    const req = request({ ...options, agent: false }, (res) => {
      res.resume();
      res.once('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

async function curl(args: string[]): Promise<void> {
  await promisify(execFile)('curl', ['-q', '-sS', '--fail', '-o', '/dev/null', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

main(Number(process.argv[2] ?? 300)).catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
