import type { MessageRecord } from '../../model/conversation-records';
import type { RunRecord } from '../../model/records';
import { noteMessage } from './note-card';
import { noteSourceOf } from './note-source';
import { type ConversationPosting, type PostTarget, postAndReadBack } from './post-in-conversation';

/** What posting a note needs: posting into a conversation, and this relay's name for its row (N5). */
export interface NotePosting extends ConversationPosting {
  relayName: string | null;
}

/**
 * N7, P7: a note's card posted into its conversation, its ref stored on the note's message.
 * A person's Open or Fold that lands between the post and the stored ref changes the note's
 * fold state but finds no card to edit; so the note is read back in the transaction that
 * stores the ref (`postAndReadBack`, after the ref's write, which holds the row) and, when its
 * fold state changed meanwhile, its card is drawn as it now stands. (A click after that finds
 * the ref: `toggleNote` reads it after its own write and edits the card itself.) Resolves with
 * the ref; null when nothing was posted.
 */
export async function postNote(
  deps: NotePosting,
  target: PostTarget,
  note: MessageRecord,
  run: RunRecord | null,
  sender: { name: string; avatarUrl: string | null },
): Promise<string | null> {
  const draw = async (shown: MessageRecord) =>
    noteMessage(
      shown,
      run,
      sender,
      deps.relayName,
      await noteSourceOf(deps.store, shown, target.platform, sender),
    );
  const posted = await postAndReadBack(
    deps,
    target,
    { kind: 'message', id: note.id },
    () => draw(note),
    (tx) => tx.messages.findById(note.id),
  );
  if (posted === null) return null;
  const current = posted.read;
  if (current?.note != null && current.note.foldState !== note.note?.foldState) {
    await deps.platforms.get(target.platform)?.update(posted.thread, posted.ref, await draw(current));
  }
  return posted.ref;
}
