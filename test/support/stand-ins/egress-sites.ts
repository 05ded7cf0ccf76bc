import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../temp-dir';

/** Test domains (they never resolve outside a test's mapped resolver). */
export const ALLOWED_SITE = 'api.egress.test';
export const OTHER_SITE = 'api.elsewhere.test';

export interface SeenRequest {
  host: string;
  method: string;
  path: string;
}

/**
 * Stand-in web sites for the egress proxy, on loopback: one plain-HTTP and one HTTPS server
 * (a throwaway certificate for the test domains, made with `openssl`) that answer every
 * request with `hello from <host>`. Each validates what a proxied request must look like:
 * an origin-form path (never the absolute URI a client sends a proxy), a Host header naming
 * a test domain, and no `Proxy-*` header leaking through. A bad request is a 400 and counted.
 */
export async function startEgressSites() {
  const dir = await makeTempDir('summon-egress-tls-');
  const key = path.join(dir.path, 'key.pem');
  const cert = path.join(dir.path, 'cert.pem');
  // biome-ignore format: one openssl invocation, its options in pairs
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
    '-subj', `/CN=${ALLOWED_SITE}`,
    '-addext', `subjectAltName=DNS:${ALLOWED_SITE},DNS:${OTHER_SITE}`,
    '-keyout', key, '-out', cert,
  ]);
  const seen: SeenRequest[] = [];
  const invalid: string[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const problems = [
      ...(req.url?.startsWith('/') ? [] : [`path is not origin-form: ${req.url}`]),
      ...([ALLOWED_SITE, OTHER_SITE].includes(host) ? [] : [`unexpected Host header: ${req.headers.host}`]),
      ...Object.keys(req.headers)
        .filter((name) => name.startsWith('proxy-'))
        .map((name) => `hop-by-hop header forwarded: ${name}`),
    ];
    if (problems.length > 0) {
      invalid.push(...problems);
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`${problems.join('\n')}\n`);
      return;
    }
    seen.push({ host, method: req.method ?? '', path: req.url ?? '' });
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${host}\n`);
  };
  const http = createHttpServer(answer);
  const https = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, answer);
  await Promise.all([listen(http), listen(https)]);
  return {
    httpPort: (http.address() as AddressInfo).port,
    httpsPort: (https.address() as AddressInfo).port,
    caFile: cert,
    seen,
    invalid,
    close: async () => {
      await Promise.all([close(http), close(https)]);
      await dir.remove();
    },
  };
}

/** A loopback TCP service nobody may reach from a sandbox: it only counts connections. */
export async function startCanaryPort() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
