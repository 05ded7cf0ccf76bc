import { type StartedEgressProxy, startEgressProxy } from '../../../src/adapters/egress-proxy/egress-proxy';
import { mappedResolver, systemResolver } from '../../../src/adapters/egress-proxy/host-resolver';
import { isAllowedDomain } from '../../../src/core/network/allowed-domains';
import { notListedSentence } from '../../../src/core/network/host-verdict';
import type { HostAuthorizer } from '../../../src/core/ports/egress';
import { silentLogger } from '../../../src/core/ports/logger';
import { curl } from '../../support/curl';
import {
  ALLOWED_SITE,
  OTHER_SITE,
  startCanaryPort,
  startEgressSites,
} from '../../support/stand-ins/egress-sites';

/** The allowed-domains half of the run's authorizer (the guardrail half is in the engine tests). */
const listOnly =
  (allowed: readonly string[], asked: string[] = []): HostAuthorizer =>
  async (host) => {
    asked.push(host);
    return isAllowedDomain(host, allowed)
      ? { allowed: true }
      : { allowed: false, reason: notListedSentence(host) };
  };

describe('X2: the egress proxy (real curl through it, stand-in sites on loopback)', () => {
  let sites: Awaited<ReturnType<typeof startEgressSites>>;
  let canary: Awaited<ReturnType<typeof startCanaryPort>>;
  const proxies: StartedEgressProxy[] = [];
  const resolve = () => mappedResolver({ [ALLOWED_SITE]: '127.0.0.1', [OTHER_SITE]: '127.0.0.1' });
  const start = async (
    authorizeHost: HostAuthorizer,
    options: { forbiddenPorts?: number[]; trusted?: boolean } = {},
  ) => {
    const proxy = await startEgressProxy({
      authorizeHost,
      resolve:
        options.trusted === false
          ? async (host) => ({ ...(await resolve()(host)), trusted: false })
          : resolve(),
      forbiddenPorts: options.forbiddenPorts ?? [],
      log: silentLogger,
    });
    proxies.push(proxy);
    return proxy;
  };
  const via = (proxy: StartedEgressProxy, url: string, extra: string[] = []) =>
    curl(['--proxy', `http://127.0.0.1:${proxy.port}`, '--cacert', sites.caFile, ...extra, url]);

  beforeAll(async () => {
    sites = await startEgressSites();
    canary = await startCanaryPort();
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await sites.close();
    await canary.close();
  });
  afterEach(() => expect(sites.invalid).toEqual([]));

  it('X2: an allowed domain passes, over HTTPS (CONNECT) and plain HTTP', async () => {
    const proxy = await start(listOnly([ALLOWED_SITE]));
    expect(await via(proxy, `https://${ALLOWED_SITE}:${sites.httpsPort}/v1/models`)).toEqual({
      code: 0,
      stdout: `hello from ${ALLOWED_SITE}\n`,
      stderr: '',
    });
    const plain = await via(proxy, `http://${ALLOWED_SITE}:${sites.httpPort}/status?x=1`, [
      '-X',
      'POST',
      '-d',
      'a=b',
    ]);
    expect(plain).toMatchObject({ code: 0, stdout: `hello from ${ALLOWED_SITE}\n` });
    expect(sites.seen).toEqual(
      expect.arrayContaining([
        { host: ALLOWED_SITE, method: 'GET', path: '/v1/models' },
        { host: ALLOWED_SITE, method: 'POST', path: '/status?x=1' },
      ]),
    );
  });

  it('X2: a domain outside the list is refused with a 403 whose sentence curl shows, and never reached', async () => {
    const asked: string[] = [];
    const proxy = await start(listOnly([ALLOWED_SITE], asked));
    const before = sites.seen.length;
    const plain = await via(proxy, `http://${OTHER_SITE}:${sites.httpPort}/`, [
      '--write-out',
      '%{http_code}',
    ]);
    expect(plain.stdout).toBe(`${notListedSentence(OTHER_SITE)}\n403`);
    expect(plain.stdout).toContain('sandbox.allowedDomains');

    const tls = await via(proxy, `https://${OTHER_SITE}:${sites.httpsPort}/`, ['--verbose']);
    expect(tls.code).not.toBe(0);
    expect(tls.stderr).toContain('CONNECT tunnel failed, response 403');
    expect(tls.stderr).toContain(
      `X-Summon-Refusal: Refused: ${OTHER_SITE} is not in this workspace's allowed domains`,
    );
    expect(asked).toEqual([OTHER_SITE, OTHER_SITE]);
    expect(sites.seen.length).toBe(before);
  });

  it('X2: the proxy never connects to a loopback port it was not told about', async () => {
    const proxy = await start(listOnly([ALLOWED_SITE, OTHER_SITE]), { forbiddenPorts: [canary.port] });
    const attempts = [
      await via(proxy, `http://127.0.0.1:${canary.port}/`),
      await via(proxy, `https://127.0.0.1:${canary.port}/`),
      await via(proxy, `http://localhost:${canary.port}/`),
      await via(proxy, `http://[::1]:${canary.port}/`),
      // A listed name that a trusted resolver maps to loopback still never reaches a forbidden port…
      await via(proxy, `http://${ALLOWED_SITE}:${canary.port}/`),
      await via(proxy, `https://${ALLOWED_SITE}:${canary.port}/`),
      // …nor the proxy's own port.
      await via(proxy, `http://${ALLOWED_SITE}:${proxy.port}/`),
    ];
    for (const attempt of attempts) expect(attempt.stdout + attempt.stderr).toMatch(/Refused|403/);
    const untrusted = await start(listOnly([ALLOWED_SITE]), { trusted: false });
    // Real DNS that answers with a loopback address is refused too (DNS rebinding).
    expect((await via(untrusted, `http://${ALLOWED_SITE}:${sites.httpPort}/`)).stdout).toMatch(
      /resolves to a loopback or private address/,
    );
    expect(canary.connections()).toBe(0);
  });

  it('X2: the system resolver never trusts a private answer', async () => {
    expect(await systemResolver('localhost')).toMatchObject({ trusted: false });
  });

  it('X2: closing the proxy ends its tunnels and stops pending decisions', async () => {
    let signalled: AbortSignal | undefined;
    const proxy = await start((_host, signal) => {
      signalled = signal;
      return new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ allowed: false, reason: 'stopped' })),
      );
    });
    const pending = via(proxy, `https://${ALLOWED_SITE}:${sites.httpsPort}/`);
    for (let i = 0; i < 300 && signalled === undefined; i += 1) await new Promise((r) => setTimeout(r, 100));
    await proxy.close();
    expect((await pending).code).not.toBe(0);
    expect(signalled?.aborted).toBe(true);
  });
});
