import type { Platform } from '../model/platform';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Logger } from '../ports/logger';
import type { TellInThread } from './direct-message';

/**
 * A refusal of an inbound message posted in its thread as a system message through its
 * platform. P7: a team no workspace owns has no outbox to post through; the log says why, and
 * the refusal stands.
 */
export function tellInThread(platforms: ReadonlyMap<Platform, ChatPlatform>, logger: Logger): TellInThread {
  return async (message, sentence) => {
    try {
      await platforms
        .get(message.platform)
        ?.post(message.thread, { as: { kind: 'system' }, content: { kind: 'text', text: sentence } });
    } catch (error) {
      logger.warn(
        { component: 'inbox', platform: message.platform, reason: sentence, err: String(error) },
        'the refusal could not be posted',
      );
    }
  };
}
