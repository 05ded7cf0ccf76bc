import type { RunRecord } from '../../model/records';
import type { StatusCard } from '../../ports/chat-platform';
import { noteMessage } from '../cards/note-card';
import { noteSourceOf } from '../cards/note-source';
import { cardOfUnheldRun } from './lost-card';
import type { RecoveryDeps } from './recovery-deps';

/**
 * A12, P15, T2: the cards of a run that ended with no process holding it (marked dead, stopped
 * while parked or queued): its status card shows how it ended (no rows: they were the dead
 * worker's) and the note that started it is redrawn with the ended run (N9). A card whose ref
 * was never stored is looked for in the thread (P9, T2).
 */
export async function showEndedRun(
  deps: Pick<RecoveryDeps, 'store' | 'platforms' | 'relayName'>,
  finished: RunRecord,
  card: { state: StatusCard['state']; headline: string },
): Promise<void> {
  const found = await deps.store.inWorkspace(finished.workspaceId, async (tx) => {
    const conversation = await tx.conversations.findById(finished.conversationId);
    const agents = await tx.agents.list(finished.workspaceId);
    const note = await tx.messages.findNoteOfRun(finished.id);
    const senderId = note?.note?.senderAgentId;
    return {
      conversation,
      agent: agents.find((a) => a.id === finished.agentId),
      note,
      sender: senderId ? agents.find((a) => a.id === senderId) : undefined,
    };
  });
  const { conversation, agent, note, sender } = found;
  const platform = conversation === null ? undefined : deps.platforms.get(conversation.platform);
  const thread = conversation?.threadId ?? null;
  if (conversation === null || platform === undefined || thread === null) return;
  const name = agent?.name ?? 'an agent';
  // P9, T2: a card whose ref was never stored is read back, not left "working" forever.
  const cardRef = await cardOfUnheldRun(deps, finished);
  if (cardRef !== null) {
    await platform.update(thread, cardRef, {
      as: { kind: 'agent', name, avatarUrl: agent?.avatarUrl ?? null },
      content: { kind: 'status', card: { agent: name, rows: [], ...card } },
    });
  }
  if (note?.platformMessageRef && sender) {
    await platform.update(
      thread,
      note.platformMessageRef,
      noteMessage(
        note,
        finished,
        sender,
        deps.relayName,
        await noteSourceOf(deps.store, note, conversation.platform, sender),
      ),
    );
  }
}
