import type { App } from '@slack/bolt';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { InboxChatEngine } from '../../../core/ports/chat-engine';
import type { ChatPlatform } from '../../../core/ports/chat-platform';
import type { Logger } from '../../../core/ports/logger';
import { registerCardClicks } from './slack-clicks';
import { personMessageOf, type SlackMessageEvent } from './slack-inbound';
import { slackInboxEntry } from './slack-inbox';

export interface SlackListenerDeps {
  /** T4: stores each event once; the inbox reads it back with the front end's `SlackInboxDecoder`. */
  engine: InboxChatEngine;
  platform: ChatPlatform;
  /** A2: which team's workspace owns a clicked card's channel. */
  directory: ChatDirectory;
  logger: Logger;
  botUserId: string;
  now: () => Date;
  /** Clicks whose effect is still on its way; closing waits for them. */
  inFlight: Set<Promise<void>>;
  /** Publishes the person's App Home again, with a notice on top (a refused click). */
  refreshHome: (teamId: string, userId: string, notice: string | null) => Promise<void>;
}

/**
 * The Slack events and clicks, each translated into one core call (bolt-js: the transport
 * receives and acknowledges; the rules live in the core).
 */
export function registerSlackListeners(app: App, deps: SlackListenerDeps): void {
  registerMessageIntake(app, deps);
  registerCardClicks(app, deps);
}

/**
 * T4: messages are taken in by global middleware, ahead of the listeners: Bolt runs every
 * listener's middleware chain for every event, the largest single cost of an ack. A message
 * ends here; every other event goes on to the listeners.
 */
function registerMessageIntake(app: App, deps: SlackListenerDeps): void {
  app.use(async ({ body, next }) => {
    const message = personMessageOf(body);
    if (message === null) return next();
    await takeInMessage(deps, message.event, message.teamId, message.eventId);
  });
}

/**
 * T4: a person's message is stored once and acknowledged (with `processBeforeResponse` the ack
 * waits for this write: a failure answers 500 and Slack retries, P6). Nicknames and routing (a
 * direct message's space, P1, in the core) follow from the inbox (`SlackInboxDecoder`).
 */
async function takeInMessage(
  deps: SlackListenerDeps,
  event: SlackMessageEvent,
  teamId: string | undefined,
  eventId: string | undefined,
): Promise<void> {
  const log = deps.logger.child({ component: 'slack', eventId, channel: event.channel, ts: event.ts });
  if (teamId === undefined) {
    log.warn({}, 'a Slack event without a team id was ignored');
    return;
  }
  const entry = slackInboxEntry(event, teamId, deps.now());
  if (entry === null) {
    log.debug({}, 'Slack event is not input');
    return;
  }
  const result = await deps.engine.ingest(entry);
  log.debug({ stored: result.stored }, 'Slack message taken in');
}
