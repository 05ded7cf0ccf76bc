import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { McpEndpoint } from '../../../src/adapters/mcp-endpoint/mcp-endpoint';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import type { ToolCall, TurnTools } from '../../../src/core/ports/turn-tools';
import { toolSpec } from '../../../src/core/tools/tool-definition';
import { CLAUDE_COMMAND, openCommandAgentWorkspace } from '../../support/command-agent-workspace';
import { trackerCreateIssue } from '../../support/mcp-tool-definition';
import { pathTool, recordingTools } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';

/** A server credential as Summon holds it (an MCP server's `${env:TRACKER_TOKEN}`): no run may see it. */
const CANARY = 'canary-tracker-token-6b1e2f';

type Workspace = Awaited<ReturnType<typeof openCommandAgentWorkspace>>;

/** The turn's tools: one MCP tool, one built-in; `authorize` (the hook's way in) is recorded too. */
function mcpTurnTools(withMcp = true): TurnTools & { calls: ToolCall[]; authorized: ToolCall[] } {
  const specs = [...(withMcp ? [toolSpec(trackerCreateIssue())] : []), pathTool('read_file')];
  const tools = recordingTools(specs, (call) => ({
    ok: true,
    output: `Created issue for ${JSON.stringify(call.input)}`,
  }));
  const authorized: ToolCall[] = [];
  return {
    ...tools,
    authorized,
    authorize: async (call) => {
      authorized.push(call);
      return { allowed: true };
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * E2, A9: Claude Code (the fake CLI, a wire-level MCP client) under the real command runner and
 * sandbox: its only MCP server is Summon's endpoint for the run, and what it calls there is the
 * turn's `TurnTools.call`.
 */
describe('CommandRunner: a CLI agent’s MCP tools come through Summon’s endpoint (E2, E4, A9)', () => {
  let ws: Workspace;
  let endpoint: McpEndpoint;
  beforeEach(async () => {
    ws = await openCommandAgentWorkspace();
    endpoint = new McpEndpoint();
  });
  afterEach(async () => {
    await endpoint.close();
    await ws.remove();
  });

  const run = (tools: TurnTools, runId = 'run-1') =>
    collectEvents(
      new CommandRunner({
        baseEnv: { ...process.env, PATH: ws.path, TRACKER_TOKEN: CANARY },
        killGraceMs: 1000,
        mcpEndpoint: endpoint,
      }).run(
        runnerRequest(
          {
            agent: testAgent({ adapterId: 'command', command: CLAUDE_COMMAND }),
            system: 'sys',
            prompt: 'go',
          },
          { workingDir: ws.workingDir, tools, runId },
        ),
      ),
    );

  it('E2, E4: only Summon’s endpoint is configured; it lists exactly the turn’s MCP tools; a call is one TurnTools.call; another name is refused there', async () => {
    // A project's own MCP configuration is ignored (--strict-mcp-config).
    await writeFile(
      path.join(ws.workingDir, '.mcp.json'),
      JSON.stringify({ mcpServers: { rogue: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }),
    );
    await ws.scenario([
      { mcp: 'tracker__create_issue', input: { title: 'Flaky test' } },
      { mcp: 'linear__delete_project', input: { id: 'p1' } },
      { bash: `cat /tmp/summon-agent-mcp-*/mcp.json > seen-config.json; env > seen-env.txt` },
      { text: 'Filed.' },
    ]);
    const tools = mcpTurnTools();
    const events = await run(tools);
    expect(events.at(-1)).toEqual({ type: 'final', text: 'Filed.' });
    const received = await ws.received();
    const at = received.args.indexOf('--mcp-config');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(received.args[at + 2]).toBe('--strict-mcp-config');
    expect(Object.keys(received.mcpServers as object)).toEqual(['summon']);
    const seenConfig = JSON.parse(await readFile(path.join(ws.workingDir, 'seen-config.json'), 'utf8'));
    expect(seenConfig).toEqual({
      mcpServers: {
        summon: { type: 'http', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/[\w-]{43}$/) },
      },
    });
    // E1: what Claude Code listed at start-up: the turn's MCP tools and nothing built in.
    const connected = await ws.mcpConnected();
    expect(Object.keys(connected)).toEqual(['summon']);
    expect(connected.summon?.tools.map((tool) => tool.name)).toEqual(['tracker__create_issue']);
    // E4: one call reached the turn's tools, with its arguments; the made-up one never did.
    expect(tools.calls).toEqual([
      {
        callId: expect.stringMatching(/^mcp-endpoint-/),
        name: 'tracker__create_issue',
        input: { title: 'Flaky test' },
      },
    ]);
    expect(await ws.mcpCalls()).toEqual([
      {
        tool: 'mcp__summon__tracker__create_issue',
        blocked: false,
        isError: false,
        text: 'Created issue for {"title":"Flaky test"}',
      },
      {
        tool: 'mcp__summon__linear__delete_project',
        blocked: false,
        isError: true,
        text: 'There is no tool named linear__delete_project for this agent in this space, so Summon did not call it. The tools it may use here: tracker__create_issue.',
      },
    ]);
    // E4: decided at the endpoint, not asked twice through the hook (only the Bash call was).
    expect(tools.authorized.map((call) => call.name)).toEqual(['bash']);
    expect(
      events.filter((e) => e.type === 'tool_start').map((e) => e.type === 'tool_start' && e.tool),
    ).toEqual(['mcp__summon__tracker__create_issue', 'mcp__summon__linear__delete_project', 'Bash']);
    // E2: no server credential in the agent's environment or in any file it had.
    expect(JSON.stringify(received.env)).not.toContain(CANARY);
    for (const file of await filesUnder(ws.workingDir))
      expect(await readFile(file, 'utf8')).not.toContain(CANARY);
    // The run's config is gone with the run.
    expect(existsSync(path.dirname(received.args[at + 1] ?? ''))).toBe(false);
  }, 60_000);

  it('E2: once the run has ended its address is refused, while the endpoint still serves another run', async () => {
    await ws.scenario([{ bash: `cat /tmp/summon-agent-mcp-*/mcp.json > seen-config.json` }, { text: 'ok' }]);
    const other = await endpoint.open({
      runId: 'other',
      tools: mcpTurnTools(),
      signal: new AbortController().signal,
    });
    await run(mcpTurnTools());
    const { url } = JSON.parse(await readFile(path.join(ws.workingDir, 'seen-config.json'), 'utf8'))
      .mcpServers.summon as { url: string };
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(answer.status).toBe(404);
    expect(JSON.stringify(await answer.json())).toContain('This MCP endpoint is not open: its run has ended');
    expect(new URL(other.url).port).toBe(new URL(url).port);
    await other.close();
  }, 60_000);

  it('E2: a turn without MCP tools gets no --mcp-config and connects to nothing of Summon’s', async () => {
    await ws.scenario([{ text: 'hi' }]);
    const events = await run(mcpTurnTools(false));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'hi' });
    const received = await ws.received();
    expect(received.args).not.toContain('--mcp-config');
    expect(received.args).not.toContain('--strict-mcp-config');
    expect(received.env.MCP_TOOL_TIMEOUT).toBeUndefined();
    expect(await ws.mcpConnected()).toEqual({});
  }, 60_000);

  it('T1, A12: an MCP call that waits (an approval) holds no process slot and is not the agent’s silence', async () => {
    const semaphore = new FairSemaphore(1);
    let activeWhileWaiting = -1;
    const tools = mcpTurnTools();
    tools.call = async (call) => {
      activeWhileWaiting = semaphore.active;
      await new Promise((resolve) => setTimeout(resolve, 5000)); // longer than the silence allowed
      return { ok: true, output: `approved ${call.name}` };
    };
    await ws.scenario([
      { mcp: 'tracker__create_issue', input: { title: 'x' } },
      { text: 'Filed after approval.' },
    ]);
    const events = await collectEvents(
      new CommandRunner({
        baseEnv: { ...process.env, PATH: ws.path },
        killGraceMs: 1000,
        mcpEndpoint: endpoint,
        launcher: new BubblewrapLauncher(semaphore),
        silenceTimeoutMs: () => 2500,
      }).run(
        runnerRequest(
          { agent: testAgent({ adapterId: 'command', command: CLAUDE_COMMAND }), system: '', prompt: 'go' },
          { workingDir: ws.workingDir, tools },
        ),
      ),
    );
    expect(events.at(-1)).toEqual({ type: 'final', text: 'Filed after approval.' });
    expect(activeWhileWaiting).toBe(0);
    expect((await ws.mcpCalls())[0]?.text).toBe('approved tracker__create_issue');
    expect(semaphore.active).toBe(0);
  }, 60_000);
});
