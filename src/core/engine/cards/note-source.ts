import type { MessageRecord } from '../../model/conversation-records';
import type { Platform } from '../../model/platform';
import { oneLine } from '../../notes';
import type { NoteSource } from '../../ports/chat-platform';
import type { Store } from '../../ports/store';

/**
 * N1–N3: the badge of a note: the source conversation by its current title (N2; the stored
 * title when the conversation is gone), its thread while it still exists on the platform the
 * note is shown on (N3: a link there, else plain text), and who sent it (N2's longer form).
 * Null for a message that is not a note.
 */
export async function noteSourceOf(
  store: Store,
  note: MessageRecord,
  platform: Platform,
  sender: { name: string },
): Promise<NoteSource | null> {
  const fields = note.note;
  if (fields === null) return null;
  const source =
    fields.sourceConversationId === null || fields.senderRelay !== null
      ? null
      : await store.inWorkspace(note.workspaceId, (tx) =>
          tx.conversations.findById(fields.sourceConversationId as string),
        );
  return {
    title: oneLine(source?.title ?? fields.sourceTitle) ?? null,
    thread: source !== null && source.platform === platform ? source.threadId : null,
    sender: fields.senderRelay === null ? sender.name : `${sender.name} on ${fields.senderRelay}`,
    // N3: from a paired relay, the sending session there when that relay's address is known.
    ...(fields.remote === undefined ? {} : { url: fields.remote.sessionUrl }),
  };
}
