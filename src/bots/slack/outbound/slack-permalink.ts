import type { webApi } from '@slack/bolt';
import type { Logger } from '../../../core/ports/logger';

/**
 * N3: the permalink of a message through `chat.getPermalink`
 * (https://api.slack.com/methods/chat.getPermalink: `channel` + `message_ts` → `permalink`; no
 * scope needed). A refusal (`message_not_found`, `channel_not_found`), a rate limit or a network
 * failure is logged and gives null: the note badge is then plain text, never a wrong link.
 */
export function slackPermalinks(
  client: webApi.WebClient,
  logger: Logger,
): (channel: string, messageTs: string) => Promise<string | null> {
  return async (channel, messageTs) => {
    try {
      const answer = await client.chat.getPermalink({ channel, message_ts: messageTs });
      return typeof answer.permalink === 'string' ? answer.permalink : null;
    } catch (error) {
      logger.warn(
        { channel, messageTs, reason: error instanceof Error ? error.message : String(error) },
        'no permalink for a note badge; it names its source as plain text',
      );
      return null;
    }
  };
}
