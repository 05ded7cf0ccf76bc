import type { RunRecord } from '../../model/records';
import type { RecoveryDeps } from './recovery-deps';

/**
 * P9, T2: the status card of a run no process holds. Its ref when the run has one; otherwise,
 * for a run that started (only a started run posts a card), the card read back from its thread
 * (`ChatPlatform.findRunCard`): its worker died between the card's post and the commit of the
 * ref, and P7 never posts twice, so the thread alone knows it. Null when there is none to find.
 * Read outside any transaction: the platform may be slow, and nothing waits holding the store.
 */
export async function cardOfUnheldRun(
  deps: Pick<RecoveryDeps, 'store' | 'platforms'>,
  run: RunRecord,
): Promise<string | null> {
  if (run.statusCardRef !== null) return run.statusCardRef;
  const started = run.startedAt;
  if (started === null) return null;
  const conversation = await deps.store.inWorkspace(run.workspaceId, (tx) =>
    tx.conversations.findById(run.conversationId),
  );
  const thread = conversation?.threadId ?? null;
  const platform = conversation === null ? undefined : deps.platforms.get(conversation.platform);
  if (thread === null || platform?.findRunCard === undefined) return null;
  return platform.findRunCard(thread, run.id, started);
}
