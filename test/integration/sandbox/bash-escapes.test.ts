import { lookup } from 'node:dns/promises';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import type { ProcessLauncher } from '../../../src/adapters/sandbox/process-launcher';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import { agentEnvironment } from '../../../src/core/tools/agent-environment';
import type { AnyToolDefinition, ToolScope } from '../../../src/core/tools/tool-definition';
import { hostProcessesMatching } from '../../support/host-processes';
import { CANARIES, openFakeGateway, openSandboxWorld } from '../../support/sandbox-world';
import { toolScope } from '../../support/tool-scope';

type World = Awaited<ReturnType<typeof openSandboxWorld>>;
type Gateway = Awaited<ReturnType<typeof openFakeGateway>>;

/**
 * X1–X3 with the real `bash` tool in a run's overlay (M9): each escape attempt is refused while
 * the legitimate work next to it succeeds. The sandbox is on, as it is by default.
 */
describe('bash in the sandbox (X1–X3)', () => {
  let world: World;
  let gateway: Gateway;
  let launcher: ProcessLauncher;
  let bash: AnyToolDefinition;
  let scope: ToolScope;

  beforeAll(async () => {
    world = await openSandboxWorld();
    gateway = await openFakeGateway();
    launcher = createProcessLauncher();
    const env = agentEnvironment({
      ...process.env,
      HOME: world.operatorHome,
      ANTHROPIC_API_KEY: CANARIES.env,
      DATABASE_URL: `postgres://summon:${CANARIES.env}@127.0.0.1/summon`,
    });
    [bash] = bashTools({
      env,
      launcher,
      killGraceMs: 200,
      limits: {
        processes: 64,
        fileSizeBytes: 20 * 1024 ** 2,
        tmpBytes: 16 * 1024 ** 2,
        memoryBytes: 256 * 1024 ** 2,
      },
    }) as [AnyToolDefinition];
    scope = toolScope(world.overlay, 'chat', {
      env: gateway.env,
      linkedRoots: [world.reposDir, world.agentDir],
    });
  });
  afterAll(async () => {
    await gateway.close();
    await world.remove();
  });

  const run = (command: string, timeoutSeconds?: number) =>
    bash.run(
      { command, ...(timeoutSeconds === undefined ? {} : { timeout_seconds: timeoutSeconds }) },
      scope,
      new AbortController().signal,
    );
  const expectNoCanary = (output: string) => {
    for (const canary of Object.values(CANARIES)) expect(output).not.toContain(canary);
  };

  it('X4: the sandbox is available here (bubblewrap), so these tests test it', async () => {
    expect((await launcher.status()).mode).toBe('bubblewrap');
  });

  it('X1: /proc shows only the call’s own processes; no environment in it holds a secret (Summon’s, pid 1’s, a host process’s)', async () => {
    const outcome = await run(
      `echo own: $(cat AGENTS.md); cat /proc/[0-9]*/environ | tr '\\0' '\\n'; echo; cat /proc/1/environ | tr '\\0' '\\n'; ` +
        `cat /proc/${process.pid}/environ; cat /proc/${world.holderPid}/environ; ls /proc | grep -c '^[0-9]'`,
    );
    expect(outcome.output).toContain('own: # engineer');
    expect(outcome.output).toContain('HOME=/sandbox/home');
    expectNoCanary(outcome.output);
    // Summon's own environment (the jest worker's: it was started with JEST_WORKER_ID) is not there.
    expect(outcome.output).not.toContain('JEST_WORKER_ID');
    const processes = Number(outcome.output.trim().split('\n').at(-1));
    expect(processes).toBeLessThan(10);
  });

  it('X1: another space’s worktree, other agents’ folders, the database files and the rest of the data folder are invisible; the own checkout is writable', async () => {
    const ws = path.join(world.data, 'workspaces', 'acme');
    const outcome = await run(
      `echo edit >> repos/widgets/README.md && cat repos/widgets/README.md; cat .agents/skills/deploy/SKILL.md; ` +
        `ls ${path.join(ws, 'agents')}; cat ${path.join(ws, 'agents', 'qa', 'AGENTS.md')}; ls ${path.join(ws, 'spaces')}; ` +
        `cat ${path.join(ws, 'spaces', 'other', 'repos', 'secret', 'notes.txt')}; ls -a ${world.data}; ls ${path.join(world.data, 'db')}; ` +
        `grep -rs canary ${world.data} /tmp /sandbox /etc; true`,
    );
    expect(outcome.output).toContain('widgets\nedit\n');
    expect(outcome.output).toContain('Ship it.');
    expect(outcome.output).toMatch(/No such file or directory/);
    expectNoCanary(outcome.output);
    // What `ls` of the data folder shows: only the path down to the run's own folders.
    expect(outcome.output).not.toContain('summon.log');
    expect(outcome.output).not.toContain('PG_VERSION');
  });

  it('X1: the skills a run links are read-only', async () => {
    const outcome = await run('echo x >> .agents/skills/deploy/SKILL.md');
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/Read-only file system/);
  });

  it('X1: symlinks committed in a repo to /etc/shadow or into the data folder lead nowhere; the repo’s own files read', async () => {
    const outcome = await run(
      'cat repos/widgets/README.md; cat repos/widgets/shadow; cat repos/widgets/database; cat repos/widgets/log; cat /etc/shadow; true',
    );
    expect(outcome.output).toContain('widgets\n');
    expect(outcome.output.match(/No such file or directory/g)?.length).toBe(4);
    expectNoCanary(outcome.output);
  });

  it('X1: the operator’s home and ~/.gitconfig are not visible; HOME is private and empty, git works', async () => {
    const outcome = await run(
      `echo $HOME; ls -A ~; cat ${path.join(world.operatorHome, '.gitconfig')}; git config --global --list; ` +
        'cd repos/widgets && git init -q && git -c user.name=a -c user.email=a@example.com commit -q --allow-empty -m ok && git log --format=%s',
    );
    expect(outcome.output).toContain('/sandbox/home\n');
    expect(outcome.output).toContain('\nok\n');
    expectNoCanary(outcome.output);
  });

  it('X2: a loopback port that is not the gateway is unreachable (its server sees no connection); the gateway is reached', async () => {
    const before = gateway.connections();
    const outcome = await run(
      `exec 3<>/dev/tcp/127.0.0.1/${gateway.port} && cat <&3; ` +
        `(exec 4<>/dev/tcp/127.0.0.1/${world.bystanderPort} && cat <&4) 2>&1 || echo refused; ` +
        `(exec 5<>/dev/tcp/1.1.1.1/80) 2>&1 || echo no-network`,
      20,
    );
    expect(outcome.output).toContain('gateway\n');
    expect(outcome.output).toContain('refused');
    expect(outcome.output).toContain('no-network');
    expect(outcome.output).not.toContain('bystander');
    expect(gateway.connections()).toBe(before + 1);
    expect(world.bystanderConnections()).toBe(0);
  });

  it('X2: a gateway reached by host name (on another address) is forwarded: the name resolves inside, git’s proxy is bypassed', async () => {
    // The machine's own name stands for the web process's host (docs/deploying.md); the stand-in
    // listens on the one local address that name resolves to, which is not the sandbox's loopback.
    const name = os.hostname().toLowerCase();
    const { address } = await lookup(name, { family: 4 });
    const named = await openFakeGateway({ listen: address, urlHost: name });
    try {
      const outcome = await bash.run(
        {
          command:
            `grep -c " ${name}$" /etc/hosts; ` +
            `exec 3<>/dev/tcp/${name}/${named.port} && cat <&3; echo "no_proxy=$no_proxy"`,
          timeout_seconds: 20,
        },
        {
          ...scope,
          env: { ...named.env, no_proxy: '127.0.0.1,localhost,::1' },
        },
        new AbortController().signal,
      );
      expect(outcome.output).toBe(`Exit code 0.\n1\ngateway\nno_proxy=127.0.0.1,localhost,::1,${name}\n`);
      expect(named.connections()).toBe(1);
    } finally {
      await named.close();
    }
  });

  it('X3: a fork bomb ends within its limits and leaves no process behind; the next call works', async () => {
    const marker = `forkbomb-${process.pid}-${Date.now()}`;
    const outcome = await run(`: ${marker}; bomb() { bomb | bomb & }; bomb; sleep 5`, 5);
    expect(outcome.ok).toBe(false);
    expect(hostProcessesMatching(marker)).toEqual([]);
    expect((await run('echo alive')).output).toBe('Exit code 0.\nalive\n');
  }, 60_000);

  it('X3: a 5 GB write stops at the file size limit, /tmp at its size, memory at its limit; small writes work', async () => {
    const big = await run('echo small > small.txt && cat small.txt; head -c 5G /dev/zero > big.bin');
    expect(big.ok).toBe(false);
    expect(big.output).toContain('small\n');
    expect((await stat(path.join(world.overlay, 'big.bin'))).size).toBeLessThanOrEqual(20 * 1024 ** 2);
    const tmp = await run('head -c 5G /dev/zero > /tmp/big.bin');
    expect(tmp.ok).toBe(false);
    expect(tmp.output).toMatch(/No space left on device/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's PIPESTATUS, not a template
    const memory = await run('head -c 1G /dev/zero | tail > /dev/null; echo "tail: ${PIPESTATUS[1]}"');
    expect(memory.output).toMatch(/tail: 137/); // SIGKILL by the memory limit (OOM)
  }, 60_000);

  it('X1: every call starts fresh: /tmp and HOME written by one call are gone in the next', async () => {
    await run('echo left > /tmp/left.txt && echo left > ~/left.txt');
    const outcome = await run('cat /tmp/left.txt ~/left.txt');
    expect(outcome.output.match(/No such file or directory/g)?.length).toBe(2);
  });
});
