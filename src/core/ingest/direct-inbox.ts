import { StoreChatDirectory } from '../directory/store-chat-directory';
import type { Platform } from '../model/platform';
import type { ChatEngine, InboxChatEngine } from '../ports/chat-engine';
import type { InboxDecoder } from '../ports/inbox-decoder';
import type { Store } from '../ports/store';
import { admitDirectMessage, type TellInThread } from './direct-message';

/**
 * T4: an engine without an inbox of its own (a recording stand-in in tests) as one a front end
 * hands its events to: each event is decoded at once (its direct-message space made, P1) and
 * received; an engine with an inbox is returned as it is.
 */
export function withDirectInbox(
  engine: ChatEngine,
  deps: { store: Store; tell: TellInThread },
): InboxChatEngine {
  if (engine.ingest !== undefined && engine.routeInboxWith !== undefined) return engine as InboxChatEngine;
  const decoders = new Map<Platform, InboxDecoder>();
  return {
    receive: (message) => engine.receive(message),
    act: (action, actor) => engine.act(action, actor),
    routeInboxWith: (platform, decoder) => {
      decoders.set(platform, decoder);
    },
    ingest: async (entry) => {
      const decoder = decoders.get(entry.platform);
      if (decoder === undefined) throw new Error(`No inbox decoder for ${entry.platform}.`);
      const record = { ...entry, id: entry.eventId, attempts: 0 };
      const decoded = await decoder.decode(record, new StoreChatDirectory(deps.store));
      const decision = await admitDirectMessage(deps.store, decoded, deps.tell);
      if (decision.kind === 'drop') {
        await decision.afterCommit?.();
        return { stored: false };
      }
      const outcome = await engine.receive(decision.message);
      await decision.afterCommit?.(outcome);
      return { stored: outcome.kind !== 'duplicate' };
    },
  };
}
