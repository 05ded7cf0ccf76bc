import { DeliveryError } from '../../../core/outbox/delivery-error';
import { fenceMarkerOf, openFenceAt } from '../../../core/text/open-fence';
import { splitMessage } from '../../../core/text/split-message';
import { agentTextToMrkdwn } from '../outbound/slack-mrkdwn';
import { type Pending, slackErrorOf, streamChunks, textOf } from './slack-stream-chunks';
import type { SlackReplyStreamOptions, StreamSegment } from './slack-stream-options';

/** What Slack answers for a stream it has closed (its age limit, about five minutes). */
export const STREAM_OVER = 'message_not_in_streaming_state';

/**
 * P14: the Slack calls for the messages of one streamed reply: start one (under the agent's
 * `username` and `icon_url`), append to it, stop it, and post what did not stream.
 */
export class SlackStreamMessages {
  private readonly now: () => number;

  constructor(private readonly options: SlackReplyStreamOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Starts a message with `lead` (a fence opened again, the steps still running) and `items`. */
  async start(lead: Pending[], items: Pending[]): Promise<StreamSegment> {
    const { parts, opening, teamId } = this.options;
    const direct = parts.channel.startsWith('D');
    if (!direct && opening.recipientUserId === null) {
      // A channel stream needs the person it answers (`recipient_user_id`): none, no stream.
      throw new DeliveryError('no recipient for a channel stream', { kind: 'never' });
    }
    const chunks = await streamChunks([...lead, ...items], this.options.members);
    const recipientTeam = direct ? null : await teamId();
    // The message's age counts from before the call: Slack's clock starts when it gets it.
    const startedAt = this.now();
    const ts = await this.options.call('chat.startStream', {
      channel: parts.channel,
      thread_ts: parts.threadTs,
      ...(direct || opening.recipientUserId === null
        ? {}
        : { recipient_user_id: opening.recipientUserId, recipient_team_id: recipientTeam }),
      username: opening.as.name,
      ...(opening.as.avatarUrl === null ? {} : { icon_url: opening.as.avatarUrl }),
      task_display_mode: 'timeline',
      chunks,
    });
    if (ts === null) throw new DeliveryError('Slack returned no ts for a stream', { kind: 'never' });
    const reopened = lead.flatMap((i) => (i.kind === 'text' ? [i.text] : [])).join('');
    return { ts, startedAt, text: reopened + textOf(items) };
  }

  async append(open: StreamSegment, items: Pending[]): Promise<void> {
    if (items.length === 0) return;
    await this.options.call('chat.appendStream', {
      channel: this.options.parts.channel,
      ts: open.ts,
      chunks: await streamChunks(items, this.options.members),
    });
    open.text += textOf(items);
  }

  /** Stops a message; a fence open at its end is closed first (P7). Slack having closed it already is fine. */
  async stop(segment: StreamSegment, extra: string): Promise<void> {
    const fence = openFenceAt(segment.text);
    const closing =
      fence === null ? extra : `${extra}${segment.text.endsWith('\n') ? '' : '\n'}${fenceMarkerOf(fence)}`;
    try {
      await this.options.call('chat.stopStream', {
        channel: this.options.parts.channel,
        ts: segment.ts,
        ...(closing === '' ? {} : { chunks: [{ type: 'markdown_text', text: closing }] }),
      });
    } catch (error) {
      const code = slackErrorOf(error);
      if (code !== STREAM_OVER)
        this.options.logger.warn({ err: error, ts: segment.ts }, 'stopping a reply stream failed');
    }
  }

  /** What did not stream after a failure is posted as ordinary messages (P7: split, in order). */
  async post(rest: string): Promise<void> {
    if (rest.trim() === '') return;
    const members = await this.options.members(rest);
    const { parts, opening } = this.options;
    for (const text of splitMessage(agentTextToMrkdwn(rest, members), this.options.partLimit)) {
      await this.options.call('chat.postMessage', {
        channel: parts.channel,
        thread_ts: parts.threadTs,
        username: opening.as.name,
        ...(opening.as.avatarUrl === null ? {} : { icon_url: opening.as.avatarUrl }),
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
    }
  }
}
