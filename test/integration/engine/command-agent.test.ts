import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import type { Runner, RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import {
  CLAUDE_COMMAND,
  type FakeClaudeStep,
  openCommandAgentWorkspace,
} from '../../support/command-agent-workspace';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';

type Workspace = Awaited<ReturnType<typeof openCommandAgentWorkspace>>;

/**
 * The real command runner; before each turn the fake Claude Code's scenario is written into the
 * working directory the engine chose (the stand-in reads it from its cwd).
 */
class ScenarioCommandRunner implements Runner {
  readonly workingDirs: string[] = [];
  constructor(
    private readonly inner: CommandRunner,
    private readonly steps: FakeClaudeStep[],
  ) {}

  /** P16, A9: whatever the command runner says (it takes no steering). */
  get takesSteering() {
    const inner: Runner = this.inner;
    return inner.takesSteering === true;
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(request.workingDir, { recursive: true });
    await writeFile(
      path.join(request.workingDir, 'fake-claude-scenario.json'),
      JSON.stringify({ steps: this.steps }),
    );
    this.workingDirs.push(request.workingDir);
    yield* this.inner.run(request);
  }
}

describe.each(ENGINE_SETUPS)('a command agent (Claude Code) answering in the thread on $name', (setup) => {
  let h: EngineHarness;
  let ws: Workspace;
  beforeEach(async () => {
    ws = await openCommandAgentWorkspace();
  });
  afterEach(async () => {
    await h.close();
    await ws.remove();
  });

  const start = async (steps: FakeClaudeStep[]) => {
    const runner = new ScenarioCommandRunner(
      new CommandRunner({
        baseEnv: {
          ...process.env,
          PATH: ws.path,
          ANTHROPIC_API_KEY: 'sk-ant-api03-engine-secret-0123456789',
        },
        killGraceMs: 1000,
      }),
      steps,
    );
    h = await openEngineHarness(setup, runner);
    const engineerId = await h.agentId('engineer');
    await h.read((tx) => tx.agents.update(engineerId, { adapterId: 'command', command: CLAUDE_COMMAND }));
    return runner;
  };

  it('A9, P9: the turn runs Claude Code, its Bash call is a status-card row checked by the hook, the reply is in the thread', async () => {
    const runner = await start([
      { text: 'Checking.' },
      { bash: 'echo checked > check.log' },
      { text: 'All checks pass.' },
    ]);
    await h.type('@engineer check the build');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('succeeded');
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'engineer: All checks pass.'));
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer check the build',
      'status(done) engineer',
      'engineer: All checks pass.',
    ]);
    const card = h
      .thread(1)
      .flatMap((e) =>
        e.kind === 'posted' && e.message.content.kind === 'status' ? [e.message.content.card] : [],
      )[0];
    expect(card?.rows).toEqual([expect.stringMatching(/^[✓✗] Bash/)]);
    // The composed system prompt went through --append-system-prompt, the message on stdin.
    const workingDir = runner.workingDirs[0] ?? '';
    const received = JSON.parse(await readFile(path.join(workingDir, 'fake-claude-received.json'), 'utf8'));
    expect(received.appendSystemPrompt).toContain('## Summons');
    expect(received.prompt).toContain('check the build');
    expect(received.env.ANTHROPIC_API_KEY).toBeUndefined();
    // A9: the Bash call went through `summon hook pre-tool-use` to the run's guardrail decision.
    const hookRuns = (await readFile(path.join(workingDir, 'fake-claude-hooks.jsonl'), 'utf8'))
      .trim()
      .split('\n');
    expect(hookRuns).toHaveLength(1);
    expect(JSON.parse(JSON.parse(hookRuns[0] ?? '{}').stdout).hookSpecificOutput.hookEventName).toBe(
      'PreToolUse',
    );
  });

  it('A9: a CLI agent that fails shows the failure in the thread, secrets scrubbed', async () => {
    await start([{ stderr: 'fatal: key sk-ant-api03-engine-secret-0123456789 rejected' }, { exit: 4 }]);
    await h.type('@engineer check the build');
    const [run] = await h.settled(1);
    expect(run?.status).toBe('failed');
    await waitFor(async () => h.thread(1).some((e) => describeEntry(e) === 'status(failed) engineer'));
    await waitFor(async () => h.screen().includes('exited with code 4'));
    expect(h.screen()).toContain('fatal: key [redacted] rejected');
    expect(h.screen()).not.toContain('sk-ant-api03-engine-secret-0123456789');
  });

  it('P16, A9: a message while a CLI agent works is not steering: it queues a turn after this one', async () => {
    // The Bash call works until the test leaves a file in the working directory.
    await start([
      { text: 'Building.' },
      { bash: 'while [ ! -f go ]; do sleep 0.05; done' },
      { text: 'Built.' },
    ]);
    await h.type('@engineer build the release');
    const running = await waitFor(async () => (await h.runs()).find((r) => r.status === 'running') ?? null);
    await h.type('@engineer actually, build the staging release');
    const queued = await waitFor(async () => (await h.runs()).find((r) => r.status === 'queued') ?? null);
    expect(queued.agentId).toBe(running.agentId);
    const steering = await h.store.transaction((tx) =>
      tx.query('SELECT id FROM run_steering WHERE run_id = $1', [running.id]),
    );
    expect(steering).toEqual([]);
    const { writeFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    // The run is claimed before its working folder is written: leave the file once the folder is there.
    await waitFor(async () => existsSync(h.agentDir('engineer')));
    await writeFile(path.join(h.agentDir('engineer'), 'go'), '');

    const all = await h.settled(2);
    expect(all.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(all[1]?.id).toBe(queued.id);
  });
});
