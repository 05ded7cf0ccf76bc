import type { InboundMessage } from '../../../core/ports/chat-platform';
import { slackTextToPlain } from '../outbound/slack-mrkdwn';
import { encodeSlackThreadId } from '../slack-thread-id';

/** The fields of a Slack `message` / `app_mention` event Summon reads (`@slack/types` shapes). */
export interface SlackMessageEvent {
  type: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  /** P13: the files shared with the message (Slack file objects; read by `slackFileRefs`). */
  files?: unknown;
}

/** Subtypes that are a person writing; every other subtype (edits, joins, bot posts) is not input. */
const PERSON_SUBTYPES = new Set([undefined, 'thread_broadcast', 'file_share']);

export type InboundDecision =
  | { kind: 'ignore'; reason: string }
  | { kind: 'message'; message: InboundMessage };

/**
 * One Slack event as the core's inbound message, or why it is not one. P10: anything a bot
 * wrote (the bot's own posts carry its `bot_id`; customised ones too) never starts anything.
 * P6: the event id is the message's identity, `{channel}:{ts}`, so a retry (same `event_id`),
 * a redelivery after a restart and the `message` + `app_mention` pair for one message all
 * collapse into one record in `processed_inbound_events`.
 */
export function toInboundMessage(
  event: SlackMessageEvent,
  context: {
    teamId: string;
    botUserId: string | null;
    nicknameOf: (userId: string) => string | null;
    receivedAt: Date;
  },
): InboundDecision {
  if (!PERSON_SUBTYPES.has(event.subtype)) return { kind: 'ignore', reason: `subtype ${event.subtype}` };
  if (event.bot_id !== undefined || event.app_id !== undefined)
    return { kind: 'ignore', reason: 'written by a bot' };
  if (event.user === undefined || event.user === context.botUserId)
    return { kind: 'ignore', reason: 'no person wrote it' };
  if (event.channel === undefined || event.ts === undefined)
    return { kind: 'ignore', reason: 'no channel or ts' };
  const topLevel = event.thread_ts === undefined || event.thread_ts === event.ts;
  const thread = encodeSlackThreadId({
    channel: event.channel,
    threadTs: topLevel ? event.ts : (event.thread_ts ?? event.ts),
  });
  return {
    kind: 'message',
    message: {
      platform: 'slack',
      eventId: `${event.channel}:${event.ts}`,
      workspace: { platform: 'slack', externalId: context.teamId },
      channelId: event.channel,
      thread,
      topLevel,
      messageRef: event.ts,
      senderId: event.user,
      text: slackTextToPlain(event.text ?? '', context),
      receivedAt: context.receivedAt,
      ...(mentionsUser(event.text ?? '', context.botUserId) ? { summonsApp: true } : {}),
    },
  };
}

/** P12: `<@U…>` (or `<@U…|name>`) of this user in Slack's markup. */
const mentionsUser = (text: string, userId: string | null): boolean =>
  userId !== null && (text.includes(`<@${userId}>`) || text.includes(`<@${userId}|`));

/** The Events API events that are a person's message (each needs its subscription in the manifest). */
export const MESSAGE_EVENT_TYPES = ['message', 'app_mention'] as const;

/**
 * The `message` or `app_mention` event an Events API delivery carries, with its team and event
 * id, or null for anything else (another event, a click, a command, a form): what the listeners'
 * front door takes in (T4) and what it hands on to Bolt's listeners.
 */
export function personMessageOf(
  body: unknown,
): { event: SlackMessageEvent; teamId: string | undefined; eventId: string | undefined } | null {
  if (typeof body !== 'object' || body === null) return null;
  const delivery = body as { type?: unknown; event?: unknown; team_id?: unknown; event_id?: unknown };
  if (delivery.type !== 'event_callback' || typeof delivery.event !== 'object' || delivery.event === null)
    return null;
  const event = delivery.event as SlackMessageEvent;
  if (!(MESSAGE_EVENT_TYPES as readonly string[]).includes(event.type)) return null;
  return {
    event,
    teamId: typeof delivery.team_id === 'string' ? delivery.team_id : undefined,
    eventId: typeof delivery.event_id === 'string' ? delivery.event_id : undefined,
  };
}
