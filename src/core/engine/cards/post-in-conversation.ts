import type { Platform } from '../../model/platform';
import type { ChatPlatform, OutboundMessage, ThreadId } from '../../ports/chat-platform';
import type { Store, StoreTx } from '../../ports/store';

/** What posting into a conversation needs: the store and the connected platforms. */
export interface ConversationPosting {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
}

/** The conversation a post goes to (its thread may just have been started). */
export type PostTarget = { workspaceId: string; platform: Platform; threadId: ThreadId | null };

/**
 * The stored record the posted message belongs to, which keeps its platform ref: a message of
 * the conversation's history (so notes fold and edits find it), an approval card (G4), a
 * question card (N13).
 */
export type RefHolder =
  | { kind: 'message'; id: string }
  | { kind: 'approval'; id: string }
  | { kind: 'question'; id: string };

/**
 * P7: the one way the core posts a stored thing into a conversation's thread: posted through
 * the conversation's platform, then its platform ref stored on the record it belongs to.
 * Resolves with the ref; null, without posting, when the conversation has no thread on a
 * connected platform (the record stays as stored). `message` may be composed lazily, so
 * nothing is read for a post that cannot be made.
 */
export async function postInConversation(
  deps: ConversationPosting,
  conversation: PostTarget,
  holder: RefHolder,
  message: OutboundMessage | (() => Promise<OutboundMessage>),
): Promise<string | null> {
  const posted = await postAndReadBack(deps, conversation, holder, message, async () => undefined);
  return posted?.ref ?? null;
}

/**
 * `postInConversation`, with `readBack` run in the transaction that stores the ref, after the
 * ref's write (which holds the record's row): what a click that landed meanwhile changed is
 * read there, and a click after it finds the ref. Null when nothing was posted.
 */
export async function postAndReadBack<T>(
  deps: ConversationPosting,
  conversation: PostTarget,
  holder: RefHolder,
  message: OutboundMessage | (() => Promise<OutboundMessage>),
  readBack: (tx: StoreTx) => Promise<T>,
): Promise<{ ref: string; thread: ThreadId; read: T } | null> {
  const platform = deps.platforms.get(conversation.platform);
  const thread = conversation.threadId;
  if (platform === undefined || thread === null) return null;
  const ref = await platform.post(thread, typeof message === 'function' ? await message() : message);
  const read = await deps.store.inWorkspace(conversation.workspaceId, async (tx) => {
    await keepRef(tx, holder, ref);
    return readBack(tx);
  });
  return { ref, thread, read };
}

function keepRef(tx: StoreTx, holder: RefHolder, ref: string): Promise<void> {
  switch (holder.kind) {
    case 'message':
      return tx.messages.setPlatformRef(holder.id, ref);
    case 'approval':
      return tx.approvals.setCardRef(holder.id, ref);
    case 'question':
      return tx.questions.setCardRef(holder.id, ref);
  }
}
