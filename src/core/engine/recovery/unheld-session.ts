import type { RunRecord } from '../../model/records';
import type { RecoveryDeps } from './recovery-deps';

/**
 * P15, T2: the platform's session (Slack's agent session) of a turn no process holds: its
 * worker died, so nobody ends what it showed. Parked, the session shows `suspended`; ended
 * (marked dead, stopped while parked), `closed`. While another turn of the thread is running
 * its own worker keeps the session, so it is left alone. Never throws: the session is shown
 * at best, and a platform without one loses nothing.
 */
export async function settleUnheldSession(
  deps: Pick<RecoveryDeps, 'store' | 'platforms' | 'logger'>,
  run: Pick<RunRecord, 'id' | 'workspaceId' | 'conversationId'>,
  status: 'suspended' | 'closed',
): Promise<void> {
  try {
    const found = await deps.store.inWorkspace(run.workspaceId, async (tx) => ({
      conversation: await tx.conversations.findById(run.conversationId),
      others: (await tx.steering.runningTurns(run.conversationId)).filter((r) => r.id !== run.id),
    }));
    const { conversation, others } = found;
    if (conversation === null || conversation.threadId === null || others.length > 0) return;
    const platform = deps.platforms.get(conversation.platform);
    await platform?.settleTurnSession?.(conversation.threadId, status);
  } catch (error) {
    deps.logger.warn({ err: error, runId: run.id, status }, 'settling the platform session failed');
  }
}
