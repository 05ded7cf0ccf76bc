import type { ConversationRecord } from '../model/conversation-records';
import type { EngineDeps } from './engine-deps';

/** A system message: stored in the conversation's history, then posted in its thread. */
export async function postSystemMessage(
  deps: EngineDeps,
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
  const platform = deps.platforms.get(conversation.platform);
  if (platform === undefined || conversation.threadId === null) return;
  const ref = await platform.post(conversation.threadId, {
    as: { kind: 'system' },
    content: { kind: 'text', text },
  });
  await deps.store.inWorkspace(conversation.workspaceId, (tx) => tx.messages.setPlatformRef(message.id, ref));
}
