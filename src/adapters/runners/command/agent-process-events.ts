import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { RunnerEvent } from '../../../core/ports/runner';
import { AgentOutput } from './agent-output';
import { EventQueue } from './event-queue';
import type { SilenceWatchdog } from './silence-watchdog';
import { StderrTail } from './stderr-tail';

/** How the agent's process ended, and what it printed, for the turn's last event. */
export interface AgentProcessEnd {
  output: AgentOutput;
  stderr: StderrTail;
  silent: boolean;
  spawnError: Error | undefined;
  code: number | null;
  killedBy: NodeJS.Signals | null;
}

export interface AgentProcessWatch {
  watchdog: SilenceWatchdog;
  /** Ends the agent's whole process group (X3). */
  endGroup: () => Promise<void>;
  /** How long the agent may linger after its stream-json `result`. */
  afterResultMs: number;
  /** The turn's last event once the process has ended (none when stopped). */
  lastEvent: (end: AgentProcessEnd) => RunnerEvent | undefined;
}

/**
 * A9: a launched CLI agent as runner events: `stdin` written and closed, stdout read as
 * stream-json or plain text, stderr kept for error messages, every output heard by the
 * watchdog; the queue ends with the turn's last event once the process has closed.
 */
export function agentProcessEvents(
  child: ChildProcessWithoutNullStreams,
  stdin: string,
  watch: AgentProcessWatch,
): EventQueue<RunnerEvent> {
  const queue = new EventQueue<RunnerEvent>();
  const output = new AgentOutput();
  const stderr = new StderrTail();
  let spawnError: Error | undefined;
  child.stdin.on('error', () => undefined); // an agent that never reads its stdin
  child.stdin.end(stdin);
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  let lingering: NodeJS.Timeout | undefined;
  child.stdout.on('data', (chunk: string) => {
    watch.watchdog.heard();
    for (const event of output.take(chunk)) queue.push(event);
    // The answer is in: a CLI that does not exit after its `result` is ended, not waited for.
    if (output.outcome() !== undefined && output.format === 'stream-json' && lingering === undefined)
      lingering = setTimeout(() => void watch.endGroup(), watch.afterResultMs);
  });
  child.stderr.on('data', (chunk: string) => {
    watch.watchdog.heard();
    stderr.add(chunk);
  });
  let finished = false;
  const finish = (code: number | null, killedBy: NodeJS.Signals | null) => {
    if (finished) return;
    finished = true;
    watch.watchdog.stop();
    clearTimeout(lingering);
    for (const event of output.flush()) queue.push(event);
    const last = watch.lastEvent({
      output,
      stderr,
      silent: watch.watchdog.silent,
      spawnError,
      code,
      killedBy,
    });
    if (last !== undefined) queue.push(last);
    queue.end();
  };
  child.on('error', (error) => {
    spawnError = error;
    if (child.pid === undefined) finish(null, null); // never started: no 'close' to wait for
  });
  // The agent's leftovers (a background process still holding stdout) end with it: no orphan.
  child.on('exit', () => void watch.endGroup());
  child.on('close', (code, killedBy) => finish(code, killedBy));
  queue.push({ type: 'thinking' });
  return queue;
}
