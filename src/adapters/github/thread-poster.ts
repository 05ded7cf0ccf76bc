import type { Platform } from '../../core/model/platform';
import type { ChatPlatform } from '../../core/ports/chat-platform';
import type { Store } from '../../core/ports/store';

/** Posts a system line in a run's thread, stored in the conversation's history first. */
export function threadPoster(store: Store, platforms: ReadonlyMap<Platform, ChatPlatform>) {
  return async (runId: string, text: string): Promise<void> => {
    const found = await store.transaction(async (tx) => {
      const run = await tx.runs.findById(runId);
      const conversation = run === null ? null : await tx.conversations.findById(run.conversationId);
      if (run === null || conversation === null) return null;
      const message = await tx.messages.insert(run.workspaceId, {
        conversationId: conversation.id,
        authorKind: 'system',
        authorAgentId: null,
        authorMemberId: null,
        text,
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      });
      return { conversation, message };
    });
    if (found === null) return;
    const platform = platforms.get(found.conversation.platform);
    if (platform === undefined || found.conversation.threadId === null) return;
    const ref = await platform.post(found.conversation.threadId, {
      as: { kind: 'system' },
      content: { kind: 'text', text },
    });
    await store.transaction((tx) => tx.messages.setPlatformRef(found.message.id, ref));
  };
}
