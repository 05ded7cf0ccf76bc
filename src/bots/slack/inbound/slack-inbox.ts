import { type AttachmentRef, toAttachmentRefs } from '../../../core/model/attachment';
import type { InboxEntry, InboxRecord } from '../../../core/model/inbox';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { InboundMessage } from '../../../core/ports/chat-platform';
import type { InboxDecision, InboxDecoder } from '../../../core/ports/inbox-decoder';
import type { Logger } from '../../../core/ports/logger';
import { slackMentionedUsers } from '../outbound/slack-mrkdwn';
import { SlackDirectory } from '../slack-directory';
import { slackTsCursor, threadCursorId } from './slack-backfill';
import { slackFileRefs } from './slack-files';
import { type SlackMessageEvent, toInboundMessage } from './slack-inbound';

/** What the Slack front end stores of a message event (T4): the event's own fields, and its team. */
interface SlackInboxPayload {
  teamId: string;
  event: SlackMessageEvent;
  /** P13: what `files` described (absent: none; the files are fetched at the turn's start). */
  files?: AttachmentRef[];
}

const EVENT_FIELDS = [
  'type',
  'subtype',
  'channel',
  'channel_type',
  'user',
  'bot_id',
  'app_id',
  'text',
  'ts',
  'thread_ts',
] as const;

/**
 * T4: the inbox entry of a Slack message event, or null when it is no person's message (P10:
 * decided from the event alone, before the ack). Nothing is looked up here: the ack waits for
 * one write only.
 */
export function slackInboxEntry(
  event: SlackMessageEvent,
  teamId: string,
  receivedAt: Date,
): InboxEntry | null {
  const decision = toInboundMessage(event, { teamId, botUserId: null, nicknameOf: () => null, receivedAt });
  if (decision.kind === 'ignore') return null;
  const stored: Record<string, string> = {};
  for (const field of EVENT_FIELDS) {
    const value = event[field];
    if (typeof value === 'string') stored[field] = value;
  }
  const files = slackFileRefs(event.files);
  return {
    platform: 'slack',
    // P6: `{channel}:{ts}`, the key processed_inbound_events has always recorded.
    eventId: decision.message.eventId,
    threadKey: decision.message.thread,
    channelKey: decision.message.topLevel ? `slack:${decision.message.channelId}` : null,
    payload: { teamId, event: stored, ...(files.length === 0 ? {} : { files }) } satisfies {
      teamId: string;
      event: Record<string, string>;
    },
    receivedAt,
  };
}

function payloadOf(record: InboxRecord): SlackInboxPayload {
  const payload = record.payload as Partial<SlackInboxPayload> | null;
  if (typeof payload?.teamId !== 'string' || typeof payload.event?.type !== 'string') {
    throw new Error(`Inbox row ${record.id} holds no Slack message event.`);
  }
  return { teamId: payload.teamId, event: payload.event, files: toAttachmentRefs(payload.files) };
}

/**
 * T4: a stored Slack event read back after the ack, inside the routing transaction: `<@U…>` as
 * the member's nickname (read fresh, P8); a direct message is said to be one (the core makes
 * its one-person space, P1).
 */
export class SlackInboxDecoder implements InboxDecoder {
  constructor(private readonly deps: { botUserId: string; logger: Logger }) {}

  /**
   * T3: the message as the event alone tells it (a mentioned person's `<@U…>` not yet their
   * nickname); a direct message is not previewed (its space may not exist yet, P1).
   */
  preview(record: InboxRecord): InboundMessage | null {
    const { teamId, event } = payloadOf(record);
    if (event.channel_type === 'im') return null;
    const decision = toInboundMessage(event, {
      teamId,
      botUserId: this.deps.botUserId,
      nicknameOf: () => null,
      receivedAt: record.receivedAt,
    });
    return decision.kind === 'message' ? decision.message : null;
  }

  async decode(record: InboxRecord, directory: ChatDirectory): Promise<InboxDecision> {
    const { teamId, event, files } = payloadOf(record);
    const log = this.deps.logger.child({ component: 'slack', eventId: record.eventId });
    const direct = event.channel_type === 'im';
    // P1: a direct message's team is settled by the core, which makes its space.
    const channel = direct ? undefined : event.channel;
    // T3: asked at once, so they go to the database as one round trip.
    const [nicknames, bound, boundInTeam] = await Promise.all([
      new SlackDirectory(directory).nicknamesOfTeam(teamId, slackMentionedUsers(event.text ?? '')),
      channel === undefined ? false : directory.isBoundChannel('slack', channel),
      channel === undefined ? false : directory.isBoundChannel('slack', channel, teamId),
    ]);
    if (bound && !boundInTeam) {
      // A2, P8: one token may serve several teams (an org-wide install); an event of one team
      // naming a channel another team's workspace owns runs nothing and says nothing there.
      const reason = 'the channel belongs to another team’s workspace';
      return {
        kind: 'drop',
        reason,
        afterCommit: async () => log.warn({ team: teamId, channel }, `Slack event refused: ${reason}`),
      };
    }
    const decision = toInboundMessage(event, {
      teamId,
      botUserId: this.deps.botUserId,
      nicknameOf: (userId) => nicknames.get(userId) ?? null,
      receivedAt: record.receivedAt,
    });
    if (decision.kind === 'ignore') return { kind: 'drop', reason: decision.reason };
    // P13: the files the event described travel with the message; the turn fetches them.
    const message =
      files === undefined || files.length === 0
        ? decision.message
        : { ...decision.message, attachments: files };
    // P1: a direct message, from this person in this team: the core routes it in their own space.
    if (bound) await advanceCursors(directory, message.channelId, event);
    return {
      kind: 'route',
      message,
      ...(direct
        ? {
            direct: { platform: 'slack', teamId, channelId: message.channelId, userId: message.senderId },
          }
        : {}),
      // O6: the engine's routing line says the outcome at info; this one is for debugging the front end.
      afterCommit: async (outcome) => log.debug({ outcome: outcome.kind }, 'Slack message handled'),
    };
  }
}

/**
 * P11: the back-fill cursors of a bound channel (the caller checked) move in the routing's transaction (routed and
 * remembered, or neither): a top-level message moves the channel's and opens its own thread's
 * (so replies said during a gap are fetched), a reply moves its thread's.
 */
async function advanceCursors(
  directory: ChatDirectory,
  channel: string,
  event: SlackMessageEvent,
): Promise<void> {
  const ts = event.ts;
  if (ts === undefined) return;
  const messageId = slackTsCursor(ts);
  const root = event.thread_ts ?? ts;
  if (root === ts)
    await directory.advanceCursor('slack', { channelId: channel, parentChannelId: null, messageId });
  await directory.advanceCursor('slack', {
    channelId: threadCursorId(channel, root),
    parentChannelId: channel,
    messageId,
  });
}
