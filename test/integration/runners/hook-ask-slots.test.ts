import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CommandRunner } from '../../../src/adapters/runners/command/command-runner';
import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { bashTools } from '../../../src/adapters/tools/bash-tool';
import type { ToolOutcome } from '../../../src/core/ports/turn-tools';
import type { AnyToolDefinition } from '../../../src/core/tools/tool-definition';
import {
  CLAUDE_COMMAND,
  openCommandAgentWorkspace,
  RecordingTools,
} from '../../support/command-agent-workspace';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { makeTempDir } from '../../support/temp-dir';
import { toolScope } from '../../support/tool-scope';

/** How long the person deciding waits for the other agent's bash before answering anyway. */
const PERSON_PATIENCE_MS = 15_000;

describe('T1: a CLI agent whose PreToolUse hook waits for a person holds no process slot', () => {
  let ws: Awaited<ReturnType<typeof openCommandAgentWorkspace>>;
  let elsewhere: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    ws = await openCommandAgentWorkspace();
    elsewhere = await makeTempDir();
  });
  afterEach(async () => {
    await ws.remove();
    await elsewhere.remove();
  });

  it('with one process slot, another agent’s bash runs while the ask waits; once approved the agent takes the slot again and runs the command', async () => {
    const semaphore = new FairSemaphore(1); // SUMMON_PROCESS_CONCURRENCY=1
    const launcher = new BubblewrapLauncher(semaphore);
    const bash = (bashTools({ env: { PATH: '/usr/bin:/bin' }, launcher }) as [AnyToolDefinition])[0];
    let other: ToolOutcome | 'still waiting for a slot' = 'still waiting for a slot';
    let activeWhileAsking = -1;
    const tools = new RecordingTools(async () => {
      activeWhileAsking = semaphore.active;
      // The person decides only after another agent's command has had its turn (or gives up).
      const ran = bash
        .run(
          { command: 'echo another agent ran' },
          toolScope(elsewhere.path, 'chat', { runId: 'run-of-another-agent' }),
          new AbortController().signal,
        )
        .then((outcome) => {
          other = outcome;
        });
      let patience: NodeJS.Timeout | undefined;
      await Promise.race([
        ran,
        new Promise((resolve) => (patience = setTimeout(resolve, PERSON_PATIENCE_MS))),
      ]);
      clearTimeout(patience);
      return { allowed: true };
    });
    await ws.scenario([{ bash: 'echo approved > approved.txt' }, { text: 'Done after approval.' }]);
    const runner = new CommandRunner({
      baseEnv: { ...process.env, PATH: ws.path },
      killGraceMs: 1000,
      launcher,
    });
    const events = await collectEvents(
      runner.run(
        runnerRequest(
          { agent: testAgent({ adapterId: 'command', command: CLAUDE_COMMAND }), system: '', prompt: 'Go.' },
          { runId: 'run-of-the-cli-agent', workingDir: ws.workingDir, tools },
        ),
      ),
    );
    expect(activeWhileAsking).toBe(0);
    expect(other).toEqual({ ok: true, output: 'Exit code 0.\nanother agent ran\n' });
    expect(events.at(-1)).toEqual({ type: 'final', text: 'Done after approval.' });
    expect(await readFile(path.join(ws.workingDir, 'approved.txt'), 'utf8')).toBe('approved\n');
    expect(semaphore.active).toBe(0);
    expect(semaphore.queued).toBe(0);
  }, 60_000);
});
