import type { MessageRecord } from '../model/conversation-records';
import type { RunRecord } from '../model/records';
import type { EngineDeps } from './engine-deps';
import { noteMessage } from './note-card';
import { noteSourceOf } from './note-source';
import { type PostTarget, postInConversation } from './post-in-conversation';

/**
 * N7, P7: a note's card posted into its conversation, its ref stored on the note's message
 * (`postInConversation`). A person's Open or Fold that lands between the post and the stored
 * ref changes the note's fold state but finds no card to edit; so once the ref is stored the
 * note is read again and, when its fold state changed meanwhile, its card is drawn as it now
 * stands. (A click after that finds the ref: `toggleNote` reads it after its own write, which
 * waits for the ref's, and edits the card itself.) Resolves with the ref; null when nothing
 * was posted.
 */
export async function postNote(
  deps: Pick<EngineDeps, 'store' | 'platforms' | 'relayName'>,
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
  const ref = await postInConversation(deps, target, { kind: 'message', id: note.id }, () => draw(note));
  if (ref === null || target.threadId === null) return ref;
  const current = await deps.store.inWorkspace(target.workspaceId, (tx) => tx.messages.findById(note.id));
  if (current?.note != null && current.note.foldState !== note.note?.foldState) {
    await deps.platforms.get(target.platform)?.update(target.threadId, ref, await draw(current));
  }
  return ref;
}
