import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { createToolKit } from '../../../src/core/engine/tool-kit/turn-tool-kit';
import type { GuardrailDecision } from '../../../src/core/model/guardrail';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import { CLAUDE_COMMAND, type FakeClaudeStep, mcpCallsIn } from '../../support/command-agent-workspace';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { trackerCreateIssue } from '../../support/mcp-tool-definition';
import { makeTempDir } from '../../support/temp-dir';

/** The real command runner; the fake Claude Code's scenario written where the engine runs it. */
class ScenarioRunner implements Runner {
  readonly workingDirs: string[] = [];
  constructor(
    private readonly inner: CommandRunner,
    private readonly steps: FakeClaudeStep[],
  ) {}

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

const STEPS: FakeClaudeStep[] = [
  { mcp: 'tracker__create_issue', input: { title: 'Flaky test' } },
  { text: 'Done.' },
];

/**
 * E4, A9: a CLI agent's MCP call goes through the turn's tool kit as a built-in turn's does:
 * the workspace's `mcp` rule decides it, an `ask` is an approval card the call waits on, and a
 * refusal is what the agent reads as the tool's result.
 */
describe.each(ENGINE_SETUPS)('a CLI agent’s MCP call in a turn, guarded (E4) on $name', (setup) => {
  let h: EngineHarness;
  let bin: Awaited<ReturnType<typeof makeTempDir>>;
  let calls: { title: string }[];
  let runner: ScenarioRunner;
  beforeEach(async () => {
    bin = await makeTempDir('summon-fake-claude-bin-');
    const { symlink } = await import('node:fs/promises');
    await symlink(
      path.join(__dirname, '..', '..', 'support', 'stand-ins', 'fake-claude.js'),
      path.join(bin.path, 'claude'),
    );
    calls = [];
    runner = new ScenarioRunner(
      new CommandRunner({
        baseEnv: { ...process.env, PATH: `${bin.path}:${process.env.PATH ?? ''}` },
        killGraceMs: 1000,
      }),
      STEPS,
    );
    h = await openEngineHarness(setup, runner, {}, { tools: createToolKit([trackerCreateIssue(calls)]) });
    const engineerId = await h.agentId('engineer');
    await h.read((tx) => tx.agents.update(engineerId, { adapterId: 'command', command: CLAUDE_COMMAND }));
  });
  afterEach(async () => {
    await h.close();
    await bin.remove();
  });
  const rule = (decision: GuardrailDecision) =>
    h.read((tx) =>
      tx.guardrails.upsert(h.local.workspace.id, {
        scopeKind: 'space',
        scopeId: h.local.space.id,
        action: 'mcp',
        decision,
      }),
    );
  const agentCalls = () => mcpCallsIn(runner.workingDirs[0] ?? '');

  it('E4: with `mcp: deny` the call is refused by the guardrails, the refusal is the tool result, the tool never runs', async () => {
    await rule('deny');
    await h.type('@engineer file the flaky test');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    expect(calls).toEqual([]);
    const [made] = await agentCalls();
    expect(made).toMatchObject({ tool: 'mcp__summon__tracker__create_issue', blocked: false, isError: true });
    // E4: the sentence names the tool and the rule that decided.
    expect(made?.text).toMatch(
      /^Refused: mcp tracker__create_issue is denied by rule space:general mcp = deny/,
    );
  });

  it('E4: with `mcp: allow` the call runs once, with its arguments', async () => {
    await rule('allow');
    await h.type('@engineer file the flaky test');
    await h.settled(1);
    expect(calls).toEqual([{ title: 'Flaky test' }]);
    expect(await agentCalls()).toEqual([
      {
        tool: 'mcp__summon__tracker__create_issue',
        blocked: false,
        isError: false,
        text: 'Created issue #1: Flaky test',
      },
    ]);
  });

  it('G4, E4: with `mcp: ask` the call waits on an approval card; once approved it runs', async () => {
    await rule('ask');
    await h.type('@engineer file the flaky test');
    const card = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry.cardNumber : null;
    });
    expect(calls).toEqual([]);
    await h.type('/thread 1');
    await h.type(`/approve ${card}`);
    await h.settled(1);
    expect(calls).toEqual([{ title: 'Flaky test' }]);
    expect(h.thread(1).map(describeEntry)).toContainEqual(
      // E4: the card names the MCP tool (its server, tool and arguments in its lines).
      expect.stringMatching(/^approval\(approved\) engineer wants to call tracker__create_issue/),
    );
    expect((await agentCalls())[0]).toMatchObject({ isError: false, text: 'Created issue #1: Flaky test' });
    // O4: a CLI agent's call through Summon's endpoint is recorded like a built-in turn's.
    const [run] = await h.runs();
    expect(await h.read((tx) => tx.mcpCalls.listForRun(run?.id ?? ''))).toMatchObject([
      {
        tool: 'tracker__create_issue',
        decision: 'ask',
        approvedByMemberId: h.local.member.id,
        outcome: 'ok',
      },
    ]);
  });
});
