import { waitTopics } from '../../ports/wait-signals';
import { awaitWithoutSlot } from '../waits/await-without-slot';
import type { AgentToolContext } from './agent-tool-context';

export type RunWait =
  | { state: 'succeeded'; reply: string }
  | { state: 'failed'; error: string }
  | { state: 'timeout'; status: string }
  | { state: 'aborted' };

type Finished = Extract<RunWait, { state: 'succeeded' | 'failed' }>;

/**
 * N11, T1: waits for another agent's turn until it ends, the timeout passes or the caller's
 * own turn is stopped. The waiting turn holds no slot (so the awaited turn always finds one)
 * and polls nothing: the run's end is notified, in whichever process it ran.
 */
export async function awaitRun(
  ctx: AgentToolContext,
  awaited: { runId: string },
  /** When it stops waiting (null: until the run ends); T2: a resumed wait keeps its first end. */
  until: Date | null,
  signal: AbortSignal,
): Promise<RunWait> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const read = () =>
    deps.store.inWorkspace(workspaceId, async (tx) => {
      const run = await tx.runs.findById(awaited.runId);
      if (run === null) return { state: 'failed' as const, error: 'its turn is gone' };
      if (run.status === 'failed') return { state: 'failed' as const, error: run.error ?? 'it failed' };
      if (run.status !== 'succeeded') return { state: 'running' as const, status: run.status };
      const reply = run.replyMessageId === null ? null : await tx.messages.findById(run.replyMessageId);
      return { state: 'succeeded' as const, reply: reply?.text ?? '' };
    });
  const outcome = await awaitWithoutSlot(deps, turn.runId, {
    topic: waitTopics.run(awaited.runId),
    ...(until === null ? {} : { until }),
    signal,
    check: async (): Promise<Finished | null> => {
      const found = await read();
      return found.state === 'running' ? null : found;
    },
  });
  if (outcome.state === 'ready') return outcome.value;
  if (outcome.state === 'aborted') return { state: 'aborted' };
  const last = await read();
  return last.state === 'running' ? { state: 'timeout', status: last.status } : last;
}
