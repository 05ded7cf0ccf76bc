import type { PlatformActor, ThreadId } from '../../ports/chat-engine';
import type { StopDeps } from './stop-deps';
import { stopRun } from './stop-run';

/**
 * P15: a platform's own Stop for a whole thread (Slack's agent-session Stop carries the thread,
 * not a run): each turn running in the thread's conversation is asked to stop under the same
 * rule as the card's button (`stopRun`: the starter, owners, admins, approvers). When none
 * could be, the refusal (or "nothing is running") is the sentence for the person.
 */
export async function stopThread(
  deps: StopDeps,
  thread: ThreadId,
  actor: PlatformActor,
): Promise<{ ok: true; stopped: number } | { ok: false; reason: string; running: number }> {
  const running = await deps.store.transaction(async (tx) => {
    const conversation = await tx.conversations.findByThread(actor.platform, thread);
    return conversation === null ? [] : tx.steering.runningTurns(conversation.id);
  });
  if (running.length === 0) {
    deps.logger.info({ thread }, 'stop for a thread where nothing runs');
    return { ok: false, reason: 'Nothing is running in this thread.', running: 0 };
  }
  let stopped = 0;
  let refusal: string | null = null;
  for (const run of running) {
    const result = await stopRun(deps, run.id, actor);
    if (result.ok) stopped += 1;
    else refusal ??= result.reason;
  }
  if (stopped > 0) return { ok: true, stopped };
  return { ok: false, reason: refusal ?? 'Nothing is running in this thread.', running: running.length };
}
