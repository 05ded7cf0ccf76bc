import { AppError } from '../../errors';
import { toggleNote as nextFoldState } from '../../notes';
import type { PlatformActor } from '../../ports/chat-engine';
import { noteAuthorOf } from '../cards/note-author';
import { noteMessage } from '../cards/note-card';
import { noteSourceOf } from '../cards/note-source';
import { resolveActor } from '../routing/resolve-sender';
import type { ActionDeps } from './action-deps';

/**
 * N7: a person opens or folds a note; only the display changes, and only for members of the
 * note's workspace (P8). A refusal is thrown as an `AppError` the front end tells the person.
 */
export async function toggleNote(
  deps: ActionDeps,
  messageId: string,
  action: 'open' | 'fold',
  actor: PlatformActor,
): Promise<void> {
  const found = await deps.store.transaction(async (tx) => {
    const note = await tx.messages.findById(messageId);
    if (note?.note == null) throw new AppError(`There is no note ${messageId}.`, 'not_found');
    const conversation = await tx.conversations.findById(note.conversationId);
    if (conversation === null) throw new AppError(`There is no note ${messageId}.`, 'not_found');
    const member = await resolveActor(tx, actor, deps.platforms);
    if (member === null || member.workspaceId !== note.workspaceId) {
      throw new AppError('Only members of this workspace can open or fold its notes.', 'forbidden');
    }
    const foldState = nextFoldState(note.note.foldState, action);
    await tx.messages.setNoteFoldState(note.id, foldState);
    // N7: the card's ref read after the write, which holds the row: a card whose ref is being
    // stored is edited here once it is, or redrawn by its poster (`postNote`) if not yet.
    const platformMessageRef = (await tx.messages.findById(note.id))?.platformMessageRef ?? null;
    const run = note.note.runId === null ? null : await tx.runs.findById(note.note.runId);
    const sender = noteAuthorOf(note, await tx.agents.list(note.workspaceId));
    return {
      note: { ...note, platformMessageRef, note: { ...note.note, foldState } },
      conversation,
      run,
      sender,
    };
  });
  const { note, conversation, run, sender } = found;
  const platform = deps.platforms.get(conversation.platform);
  if (!platform || !sender || conversation.threadId === null || note.platformMessageRef === null) return;
  await platform.update(
    conversation.threadId,
    note.platformMessageRef,
    noteMessage(
      note,
      run,
      sender,
      deps.relayName,
      await noteSourceOf(deps.store, note, conversation.platform, sender),
    ),
  );
}
