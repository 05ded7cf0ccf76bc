import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { cliAgentEgress } from '../../../src/adapters/egress-proxy/cli-agent-egress';
import { mappedResolver } from '../../../src/adapters/egress-proxy/host-resolver';
import { RunEgressProxies } from '../../../src/adapters/egress-proxy/run-egress-proxies';
import { sandboxEgress } from '../../../src/adapters/egress-proxy/sandbox-egress';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { runSandboxPolicy } from '../../../src/adapters/sandbox/run-sandbox-policy';
import { isAllowedDomain } from '../../../src/core/network/allowed-domains';
import { notListedSentence } from '../../../src/core/network/host-verdict';
import type { HostAuthorizer } from '../../../src/core/ports/egress';
import { silentLogger } from '../../../src/core/ports/logger';
import {
  ALLOWED_SITE,
  OTHER_SITE,
  startCanaryPort,
  startEgressSites,
} from '../../support/stand-ins/egress-sites';
import { makeTempDir } from '../../support/temp-dir';

const listOnly =
  (allowed: readonly string[]): HostAuthorizer =>
  async (host) =>
    isAllowedDomain(host, allowed) ? { allowed: true } : { allowed: false, reason: notListedSentence(host) };

describe('X2: curl inside a real sandbox reaches out only through its run’s proxy', () => {
  let sites: Awaited<ReturnType<typeof startEgressSites>>;
  let canary: Awaited<ReturnType<typeof startCanaryPort>>;
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  const launcher = createProcessLauncher({ mode: 'on' });
  const proxies = () =>
    new RunEgressProxies({
      logger: silentLogger,
      forbiddenPorts: [canary.port],
      resolve: mappedResolver({ [ALLOWED_SITE]: '127.0.0.1', [OTHER_SITE]: '127.0.0.1' }),
    });

  /** One sandboxed `bash -c` with the run's egress plugged in; its stdout+stderr and exit code. */
  const sandboxed = async (
    egressOf: RunEgressProxies,
    runId: string,
    script: string,
    cliAgentEnv?: Record<string, string>,
  ) => {
    const runEgress = egressOf.forRun(runId, listOnly([ALLOWED_SITE]));
    const egress =
      cliAgentEnv === undefined
        ? await sandboxEgress(runEgress)
        : await cliAgentEgress(runEgress, cliAgentEnv);
    const policy = runSandboxPolicy({
      workingDir: dir.path,
      env: { PATH: '/usr/bin:/bin', ...egress.env },
      forwards: egress.forwards,
    });
    const call = await launcher.launch(policy, ['bash', '-c', script]);
    call.child.stdin.end();
    let output = '';
    call.child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    call.child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exit = await call.done;
    return { code: exit.code, output };
  };

  beforeAll(async () => {
    sites = await startEgressSites();
    canary = await startCanaryPort();
    dir = await makeTempDir('summon-egress-sandbox-');
    await copyFile(sites.caFile, path.join(dir.path, 'ca.pem'));
  });
  afterAll(async () => {
    await sites.close();
    await canary.close();
    await dir.remove();
  });
  afterEach(() => expect(sites.invalid).toEqual([]));

  it('X2: an allowed domain passes over HTTPS and HTTP (HTTPS_PROXY/HTTP_PROXY set inside)', async () => {
    const egress = proxies();
    const result = await sandboxed(
      egress,
      'run-allowed',
      [
        'echo "proxy=$HTTPS_PROXY no_proxy=$NO_PROXY"',
        `curl -sS --cacert ca.pem https://${ALLOWED_SITE}:${sites.httpsPort}/inside`,
        `curl -sS http://${ALLOWED_SITE}:${sites.httpPort}/inside-plain`,
      ].join('\n'),
    );
    await egress.closeAll();
    expect(result.output).toMatch(/^proxy=http:\/\/127\.0\.0\.1:\d+ no_proxy=127\.0\.0\.1,localhost,::1\n/);
    expect(result.output).toContain(`hello from ${ALLOWED_SITE}\nhello from ${ALLOWED_SITE}\n`);
    expect(result.code).toBe(0);
  });

  it('X2: a domain outside the list is refused with the sentence; loopback and the canary stay unreachable', async () => {
    const egress = proxies();
    const result = await sandboxed(
      egress,
      'run-refused',
      [
        `curl -sS http://${OTHER_SITE}:${sites.httpPort}/`,
        `curl -sS --cacert ca.pem https://${OTHER_SITE}:${sites.httpsPort}/ || echo "tls exit $?"`,
        // Around the proxy: no route out at all (no network in the sandbox but its forwards).
        `curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${canary.port}/ || echo "direct exit $?"`,
        // Through the proxy to the canary's port: refused whatever the name.
        `curl -sS --proxy "$HTTP_PROXY" http://127.0.0.1:${canary.port}/`,
        `curl -sS http://${ALLOWED_SITE}:${canary.port}/`,
      ].join('\n'),
    );
    await egress.closeAll();
    expect(result.output).toContain(notListedSentence(OTHER_SITE));
    expect(result.output).toContain('CONNECT tunnel failed, response 403');
    expect(result.output).toMatch(/direct exit [1-9]/);
    expect(result.output).toContain(`Refused: port ${canary.port} of ${ALLOWED_SITE} is not reachable`);
    expect(canary.connections()).toBe(0);
  });

  it('X2: a CLI agent always reaches its model API (the host of ANTHROPIC_BASE_URL), though it is not listed', async () => {
    const egress = proxies();
    const model = `https://${OTHER_SITE}:${sites.httpsPort}`;
    const result = await sandboxed(egress, 'run-cli-agent', `curl -sS --cacert ca.pem ${model}/v1/messages`, {
      ANTHROPIC_BASE_URL: model,
    });
    await egress.closeAll();
    expect(result).toEqual({ code: 0, output: `hello from ${OTHER_SITE}\n` });
  });
});
