import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import { loadConfig } from '../../../src/config/config';
import type { AnyToolDefinition } from '../../../src/core/tools/tool-definition';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

const env = { PATH: '/usr/bin:/bin' };
const bashWith = (launcher: ReturnType<typeof createProcessLauncher>) =>
  (bashTools({ env, launcher }) as [AnyToolDefinition])[0];

describe('the sandbox launcher’s modes (X4) and the process bound (issue 12, T3)', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => dir.remove());
  const run = (bash: AnyToolDefinition, command: string) =>
    bash.run({ command }, toolScope(dir.path), new AbortController().signal);

  it('X4: without bubblewrap the command is refused with a sentence that says how to fix it, and never runs', async () => {
    const launcher = new BubblewrapLauncher(new FairSemaphore(2), { bwrap: '/nonexistent/bwrap' });
    const status = await launcher.status();
    expect(status.mode).toBe('unavailable');
    expect(status.problem).toMatch(/apt-get install bubblewrap socat/);
    expect(status.problem).toMatch(/SUMMON_SANDBOX=off/);
    const outcome = await run(bashWith(launcher), 'echo ran > ran.txt');
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(
      /^Could not start bash: The sandbox cannot start: bubblewrap could not be run/,
    );
    await expect(readFile(path.join(dir.path, 'ran.txt'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('X4: without socat the sandbox is refused too (the gateway could not be reached)', async () => {
    const launcher = new BubblewrapLauncher(new FairSemaphore(2), { socat: '/nonexistent/socat' });
    expect((await launcher.status()).problem).toMatch(/bubblewrap failed/);
  });

  it('X4: SUMMON_SANDBOX=off runs unconfined (the host’s /proc is visible) and says so as a warning', async () => {
    const config = loadConfig({ SUMMON_SANDBOX: 'off' }, dir.path);
    expect(config.sandbox.mode).toBe('off');
    const launcher = createProcessLauncher(config.sandbox);
    const status = await launcher.status();
    expect(status.mode).toBe('off');
    expect(status.warnings.join(' ')).toMatch(/unconfined/);
    const outcome = await run(bashWith(launcher), `test -e /proc/${process.pid} && echo host-visible`);
    expect(outcome.output).toContain('host-visible');
    // …while the default (on) does not see this process.
    const confined = await run(
      bashWith(createProcessLauncher()),
      `test -e /proc/${process.pid} || echo hidden`,
    );
    expect(confined.output).toContain('hidden');
  });

  it('X4: any other value of SUMMON_SANDBOX is an error, not a silent default', () => {
    expect(() => loadConfig({ SUMMON_SANDBOX: 'no' }, dir.path)).toThrow(/SUMMON_SANDBOX must be "on"/);
    expect(loadConfig({}, dir.path).sandbox.mode).toBe('on');
    expect(loadConfig({ SUMMON_PROCESS_CONCURRENCY: '3' }, dir.path).sandbox.processConcurrency).toBe(3);
    expect(loadConfig({}, dir.path).sandbox.processConcurrency).toBeGreaterThanOrEqual(2);
  });

  it('X2, X4: a SUMMON_GATEWAY_URL the sandbox cannot carry in refuses the start with a sentence (not with SUMMON_SANDBOX=off)', () => {
    expect(() => loadConfig({ SUMMON_GATEWAY_URL: 'http://10.0.0.5:3000' }, dir.path)).toThrow(
      /^SUMMON_GATEWAY_URL: the gateway URL http:\/\/10\.0\.0\.5:3000 names the IP address 10\.0\.0\.5, which a sandboxed run cannot reach/,
    );
    expect(() => loadConfig({ SUMMON_GATEWAY_URL: 'https://summon.example.com' }, dir.path)).toThrow(
      /uses port 443/,
    );
    expect(
      loadConfig({ SUMMON_GATEWAY_URL: 'http://10.0.0.5:3000', SUMMON_SANDBOX: 'off' }, dir.path).github
        .gatewayUrl,
    ).toBe('http://10.0.0.5:3000');
    expect(loadConfig({ SUMMON_GATEWAY_URL: 'http://summon-web:3000' }, dir.path).github.gatewayUrl).toBe(
      'http://summon-web:3000',
    );
  });

  it('T3: with a bound of one, a second call waits until the first has ended', async () => {
    const bash = bashWith(createProcessLauncher({ processConcurrency: 1 }));
    const first = run(bash, 'echo first-start >> order.txt; sleep 1; echo first-end >> order.txt');
    const second = run(bash, 'echo second >> order.txt');
    await Promise.all([first, second]);
    expect(await readFile(path.join(dir.path, 'order.txt'), 'utf8')).toBe('first-start\nfirst-end\nsecond\n');
  });
});
