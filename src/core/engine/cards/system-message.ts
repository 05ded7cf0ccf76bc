import type { ConversationRecord } from '../../model/conversation-records';
import { type ConversationPosting, postInConversation } from './post-in-conversation';

/** A system message: stored in the conversation's history, then posted in its thread. */
export async function postSystemMessage(
  deps: ConversationPosting,
  conversation: ConversationRecord,
  text: string,
): Promise<void> {
  const message = await deps.store.inWorkspace(conversation.workspaceId, (tx) =>
    tx.messages.insert(conversation.workspaceId, {
      conversationId: conversation.id,
      authorKind: 'system',
      authorAgentId: null,
      authorMemberId: null,
      text,
      mentions: { agents: [], members: [] },
      platformMessageRef: null,
      note: null,
    }),
  );
  await postInConversation(
    deps,
    conversation,
    { kind: 'message', id: message.id },
    { as: { kind: 'system' }, content: { kind: 'text', text } },
  );
}
