import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import type { ToolCall, TurnTools } from '../../../src/core/ports/turn-tools';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { CLAUDE_COMMAND, mcpCallsIn, openCommandAgentWorkspace } from '../../support/command-agent-workspace';
import { trackerCreateIssue } from '../../support/mcp-tool-definition';
import { recordingTools } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { CANARIES, openSandboxWorld } from '../../support/sandbox-world';

/** An MCP server's credential in Summon's environment (`${env:TRACKER_TOKEN}`). */
const SERVER_TOKEN = 'canary-mcp-server-token-5e0a';

/**
 * X1, X2, E2: a sandboxed CLI agent reaches Summon's MCP endpoint through its forward, at its
 * own run's address only, and nothing else of the host; it holds no server credential.
 */
describe('a CLI agent in the sandbox and Summon’s MCP endpoint (X1, X2, E2)', () => {
  let world: Awaited<ReturnType<typeof openSandboxWorld>>;
  let ws: Awaited<ReturnType<typeof openCommandAgentWorkspace>>;
  beforeAll(async () => {
    world = await openSandboxWorld();
    ws = await openCommandAgentWorkspace();
  });
  afterAll(async () => {
    await ws.remove();
    await world.remove();
  });

  it('X2, E2: the endpoint is reached at the run’s address; a guessed address is refused; no other host port is reachable; no credential inside', async () => {
    const guess = [
      `url=$(grep -o 'http://[^"]*' /tmp/summon-agent-mcp-*/mcp.json)`,
      `curl -s -o guessed.json -w '%{http_code}' -X POST -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' "\${url%/mcp/*}/mcp/guessed" > guessed-status.txt`,
    ].join('; ');
    await writeFile(
      path.join(world.overlay, 'fake-claude-scenario.json'),
      JSON.stringify({
        steps: [
          { mcp: 'tracker__create_issue', input: { title: 'From the sandbox' } },
          { bash: `${guess}; true` },
          {
            bash: `(bash -c 'exec 4<>/dev/tcp/127.0.0.1/${world.bystanderPort} && cat <&4') > bystander.txt 2>&1; env > seen-env.txt; cat /tmp/summon-agent-mcp-*/mcp.json > seen-config.json; true`,
          },
          { text: 'done' },
        ],
      }),
    );
    const tools: TurnTools & { calls: ToolCall[] } = recordingTools([toolSpec(trackerCreateIssue())], () => ({
      ok: true,
      output: 'Created issue #1',
    }));
    const runner = new CommandRunner({
      baseEnv: {
        ...process.env,
        ANTHROPIC_API_KEY: CANARIES.env,
        TRACKER_TOKEN: SERVER_TOKEN,
        HOME: world.operatorHome,
        PATH: ws.path,
      },
      killGraceMs: 1000,
    });
    const events = await collectEvents(
      runner.run(
        runnerRequest(
          {
            agent: testAgent({ adapterId: 'command', command: CLAUDE_COMMAND }),
            system: 'sys',
            prompt: 'go',
          },
          { workingDir: world.overlay, linkedRoots: [world.reposDir, world.agentDir], tools },
        ),
      ),
    );
    expect(events.at(-1)).toEqual({ type: 'final', text: 'done' });
    const read = (name: string) => readFile(path.join(world.overlay, name), 'utf8');
    // E2: its call reached the run's tools through the forward.
    expect(await mcpCallsIn(world.overlay)).toEqual([
      {
        tool: 'mcp__summon__tracker__create_issue',
        blocked: false,
        isError: false,
        text: 'Created issue #1',
      },
    ]);
    expect(tools.calls).toHaveLength(1);
    // E2: the endpoint's port is reachable, but only the run's own address opens anything.
    expect(await read('guessed-status.txt')).toBe('404');
    expect(await read('guessed.json')).toContain('This MCP endpoint is not open');
    // X2: nothing else of the host's loopback.
    expect(await read('bystander.txt')).toMatch(/Connection refused/);
    expect(world.bystanderConnections()).toBe(0);
    // E2: the agent's environment and its config hold no server credential and none of Summon's.
    const seen = (await read('seen-env.txt')) + (await read('seen-config.json'));
    expect(seen).toContain('HOME=/sandbox/home'); // X1: it ran confined
    expect(seen).toContain('MCP_TOOL_TIMEOUT=');
    for (const canary of [SERVER_TOKEN, ...Object.values(CANARIES)]) expect(seen).not.toContain(canary);
  }, 60_000);
});
