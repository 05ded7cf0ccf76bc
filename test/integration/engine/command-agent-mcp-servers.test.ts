import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expandFromEnv } from '../../../src/adapters/mcp/env-expansion';
import { McpClientPool } from '../../../src/adapters/mcp/mcp-client-pool';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { createLogger } from '../../../src/app/logger';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { AgentRecord } from '../../../src/core/model/records';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import { CLAUDE_COMMAND, type FakeClaudeStep, mcpCallsIn } from '../../support/command-agent-workspace';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
} from '../../support/engine-harness';
import {
  envRef,
  type HttpMcpServer,
  startHttpMcpServer,
  stdioSpec,
} from '../../support/mcp/mcp-test-servers';
import { makeTempDir } from '../../support/temp-dir';

/** The servers' credential, in Summon's environment only: no part of the CLI agent's run may hold it. */
const TRACKER_TOKEN = 'tracker-token-CLI-AGENT-CANARY-5d0e';

/** The real command runner; the fake Claude Code's scenario written where the engine runs it. */
class ScenarioRunner implements Runner {
  readonly workingDirs: string[] = [];
  constructor(
    private readonly inner: CommandRunner,
    private readonly steps: FakeClaudeStep[],
  ) {}

  mcpThroughEndpoint(agent: AgentRecord): boolean {
    return this.inner.mcpThroughEndpoint(agent);
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    await mkdir(request.workingDir, { recursive: true });
    await writeFile(
      path.join(request.workingDir, 'fake-claude-scenario.json'),
      JSON.stringify({ steps: this.steps }),
    );
    this.workingDirs.push(request.workingDir);
    yield* this.inner.run(request);
  }
}

/**
 * E1–E4, A9, end to end: a Claude Code agent (the fake CLI, sandboxed) in a space given two
 * declared servers — the SDK-built test server over stdio (sandboxed, E3) and over streamable
 * HTTP with `Authorization: Bearer ${env:TRACKER_TOKEN}` — lists their tools at Summon's
 * endpoint and calls them; Summon's MCP client makes the calls with the credential, which the
 * agent never holds.
 */
describe('E2 a CLI agent uses declared MCP servers through Summon’s endpoint', () => {
  let h: EngineHarness;
  let state: Awaited<ReturnType<typeof makeTempDir>>;
  let bin: Awaited<ReturnType<typeof makeTempDir>>;
  let http: HttpMcpServer;
  let clients: McpClientPool;
  beforeEach(async () => {
    state = await makeTempDir('summon-cli-mcp-state-');
    bin = await makeTempDir('summon-fake-claude-bin-');
    await symlink(
      path.join(__dirname, '..', '..', 'support', 'stand-ins', 'fake-claude.js'),
      path.join(bin.path, 'claude'),
    );
    http = await startHttpMcpServer(`Bearer ${TRACKER_TOKEN}`);
  });
  afterEach(async () => {
    await h?.close();
    await clients?.close();
    await http.close();
    await bin.remove();
    await state.remove();
  });

  it('E1, E2, E4: the agent lists both servers’ tools, its calls reach the servers through Summon’s client, and no credential reaches it', async () => {
    const logger = createLogger({ level: 'silent' });
    clients = new McpClientPool({
      expand: expandFromEnv({ TRACKER_TOKEN }),
      launcher: createProcessLauncher({ processConcurrency: 8 }),
      logger,
      stateDir: state.path,
    });
    const runner = new ScenarioRunner(
      new CommandRunner({
        // Summon's own environment holds the credential; the agent's is built from an allow-list.
        baseEnv: { ...process.env, TRACKER_TOKEN, PATH: `${bin.path}:${process.env.PATH ?? ''}` },
        killGraceMs: 1000,
      }),
      [
        { mcp: 'remote__create_issue', input: { title: 'Flaky test' } },
        { mcp: 'tracker__search', input: { query: 'flaky' } },
        { bash: 'env > seen-env.txt; cat /tmp/summon-agent-mcp-*/mcp.json > seen-config.json' },
        { text: 'Filed.' },
      ],
    );
    h = await openEngineHarness(
      ENGINE_SETUPS[0],
      runner,
      {},
      { tools: createTurnTools(process.env, {}), logger, mcp: { clients } },
    );
    const workspaceId = h.local.workspace.id;
    const engineerId = await h.agentId('engineer');
    await h.read(async (tx) => {
      await tx.agents.update(engineerId, { adapterId: 'command', command: CLAUDE_COMMAND });
      const servers = [
        stdioSpec({ env: { TRACKER_TOKEN: envRef('TRACKER_TOKEN') } }),
        http.spec({ Authorization: `Bearer ${envRef('TRACKER_TOKEN')}` }),
      ];
      for (const server of servers) await tx.mcpServers.save(workspaceId, server);
      await tx.mcpServers.assign(workspaceId, { spaceId: h.local.space.id }, ['tracker', 'remote']);
      await tx.guardrails.upsert(workspaceId, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'mcp',
        decision: 'allow',
      });
    });
    await h.type('@engineer file the flaky test');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Filed.');
    const workingDir = runner.workingDirs[0] ?? '';
    // E1: at start-up the agent saw the declared servers' tools, and nothing of Summon's own.
    const connected = JSON.parse(await readFile(path.join(workingDir, 'fake-claude-mcp.json'), 'utf8'));
    expect(Object.keys(connected)).toEqual(['summon']);
    const listed: string[] = connected.summon.tools.map((tool: { name: string }) => tool.name);
    expect(listed).toEqual(
      expect.arrayContaining(['tracker__search', 'tracker__create_issue', 'remote__create_issue']),
    );
    expect(listed.every((name) => /^(tracker|remote)__/.test(name))).toBe(true);
    // E2, E3: each call was made by Summon's client, the HTTP one with the expanded header.
    expect(await mcpCallsIn(workingDir)).toEqual([
      {
        tool: 'mcp__summon__remote__create_issue',
        blocked: false,
        isError: false,
        text: 'created issue "Flaky test"',
      },
      {
        tool: 'mcp__summon__tracker__search',
        blocked: false,
        isError: false,
        text: 'found 2 issues for "flaky"',
      },
    ]);
    expect(http.refused).toEqual([]);
    // E2: the credential is nowhere in the agent's run: its environment, its config, its files.
    const seen = await readFile(path.join(workingDir, 'seen-env.txt'), 'utf8');
    expect(seen).toContain('HOME=/sandbox/home');
    expect(await readFile(path.join(workingDir, 'seen-config.json'), 'utf8')).toMatch(/"summon"/);
    const files = await readdir(workingDir, { recursive: true, withFileTypes: true });
    for (const file of files.filter((entry) => entry.isFile()))
      expect(await readFile(path.join(file.parentPath, file.name), 'utf8')).not.toContain(TRACKER_TOKEN);
  }, 90_000);
});
