import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import type { ToolAuthorization } from '../../../src/core/ports/turn-tools';
import {
  CLAUDE_COMMAND,
  openCommandAgentWorkspace,
  RecordingTools,
} from '../../support/command-agent-workspace';
import { hostProcessesMatching, literally } from '../../support/host-processes';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { CANARIES, openFakeGateway, openSandboxWorld } from '../../support/sandbox-world';

const allow = async (): Promise<ToolAuthorization> => ({ allowed: true });

/**
 * X1, X2, A9: a CLI agent (the fake Claude Code) under the command runner runs in the sandbox:
 * its Bash commands and its own file access see only the run's folders, its hook still reaches
 * the runner (through a forward), and the gateway is its only other connection.
 */
describe('a CLI agent in the sandbox (X1, X2, A9)', () => {
  let world: Awaited<ReturnType<typeof openSandboxWorld>>;
  let gateway: Awaited<ReturnType<typeof openFakeGateway>>;
  let ws: Awaited<ReturnType<typeof openCommandAgentWorkspace>>;
  beforeAll(async () => {
    world = await openSandboxWorld();
    gateway = await openFakeGateway();
    ws = await openCommandAgentWorkspace();
  });
  afterAll(async () => {
    await ws.remove();
    await gateway.close();
    await world.remove();
  });

  it('X1, X2: escapes are refused while its work, its hook and the gateway go through; nothing is left running', async () => {
    const ws2 = path.join(world.data, 'workspaces', 'acme');
    const attempts = [
      `cat /proc/[0-9]*/environ`,
      `cat /proc/1/environ`,
      `cat /proc/${process.pid}/environ`,
      `cat /proc/${world.holderPid}/environ`,
      `cat ${path.join(ws2, 'agents', 'qa', 'AGENTS.md')}`,
      `cat ${path.join(ws2, 'spaces', 'other', 'repos', 'secret', 'notes.txt')}`,
      `ls ${path.join(world.data, 'db')}`,
      `cat repos/widgets/shadow repos/widgets/database repos/widgets/log`,
      `cat ${path.join(world.operatorHome, '.gitconfig')}`,
      `bash -c 'exec 4<>/dev/tcp/127.0.0.1/${world.bystanderPort} && cat <&4'`,
    ]
      .map((command) => `(${command}) >> escape.txt 2>&1`)
      .join('; ');
    await writeFile(
      path.join(world.overlay, 'fake-claude-scenario.json'),
      JSON.stringify({
        steps: [
          { bash: `${attempts}; true` },
          {
            bash: `echo built >> repos/widgets/README.md; bash -c 'exec 3<>/dev/tcp/127.0.0.1/${gateway.port} && cat <&3' > gateway.txt`,
          },
          { grandchild: 'pids.json' },
          { text: 'done' },
        ],
        result: 'done',
      }),
    );
    const tools = new RecordingTools(allow);
    const runner = new CommandRunner({
      baseEnv: { ...process.env, ANTHROPIC_API_KEY: CANARIES.env, HOME: world.operatorHome, PATH: ws.path },
      killGraceMs: 1000,
    });
    const before = gateway.connections();
    const events = await collectEvents(
      runner.run(
        runnerRequest(
          {
            agent: testAgent({ adapterId: 'command', command: CLAUDE_COMMAND }),
            system: 'sys',
            prompt: 'go',
          },
          {
            workingDir: world.overlay,
            env: gateway.env,
            linkedRoots: [world.reposDir, world.agentDir],
            tools,
          },
        ),
      ),
    );
    expect(events.at(-1)).toEqual({ type: 'final', text: 'done' });
    // A9: both Bash calls were asked about through the hook (its channel forwarded into the sandbox).
    expect(tools.authorized.map((call) => call.name)).toEqual(['bash', 'bash']);
    const escaped = await readFile(path.join(world.overlay, 'escape.txt'), 'utf8');
    for (const canary of Object.values(CANARIES)) expect(escaped).not.toContain(canary);
    expect(escaped).not.toContain('JEST_WORKER_ID');
    expect(escaped).toMatch(/No such file or directory/);
    expect(escaped).toMatch(/Connection refused/);
    expect(world.bystanderConnections()).toBe(0);
    expect(await readFile(path.join(world.repo, 'README.md'), 'utf8')).toBe('widgets\nbuilt\n');
    expect(await readFile(path.join(world.overlay, 'gateway.txt'), 'utf8')).toBe('gateway\n');
    expect(gateway.connections()).toBe(before + 1);
    // The agent's environment as it saw it: the private home, not the operator's.
    const received = JSON.parse(
      await readFile(path.join(world.overlay, 'fake-claude-received.json'), 'utf8'),
    );
    expect(received.env.HOME).toBe('/sandbox/home');
    expect(hostProcessesMatching(`summon-grandchild ${literally(world.overlay)}`)).toEqual([]);
  }, 60_000);
});
