import { postSystemMessage } from '../../core/engine/cards/system-message';
import type { Platform } from '../../core/model/platform';
import type { ChatPlatform } from '../../core/ports/chat-platform';
import type { Store } from '../../core/ports/store';

/** Posts a system line in a run's thread, stored in the conversation's history first (the core's post). */
export function threadPoster(store: Store, platforms: ReadonlyMap<Platform, ChatPlatform>) {
  return async (runId: string, text: string): Promise<void> => {
    const conversation = await store.transaction(async (tx) => {
      const run = await tx.runs.findById(runId);
      return run === null ? null : tx.conversations.findById(run.conversationId);
    });
    if (conversation === null) return;
    await postSystemMessage({ store, platforms }, conversation, text);
  };
}
