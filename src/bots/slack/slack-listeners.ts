import type { App } from '@slack/bolt';
import { AppError } from '../../core/errors';
import type { InboxChatEngine, PlatformActor } from '../../core/ports/chat-engine';
import type { ChatPlatform } from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import { ACTIONS, ANSWER_ACTION } from './slack-cards';
import { personMessageOf, type SlackMessageEvent } from './slack-inbound';
import { slackInboxEntry } from './slack-inbox';
import { encodeSlackThreadId } from './slack-thread-id';

export interface SlackListenerDeps {
  /** T4: stores each event once; the inbox reads it back with the front end's `SlackInboxDecoder`. */
  engine: InboxChatEngine;
  platform: ChatPlatform;
  logger: Logger;
  botUserId: string;
  now: () => Date;
  /** Clicks whose effect is still on its way; closing waits for them. */
  inFlight: Set<Promise<void>>;
  /** Publishes the person's App Home again, with a notice on top (a refused click). */
  refreshHome: (teamId: string, userId: string, notice: string | null) => Promise<void>;
}

interface ActionBody {
  team?: { id?: string } | null;
  user?: { id?: string };
  channel?: { id?: string };
  container?: { type?: string; channel_id?: string; message_ts?: string; thread_ts?: string };
  message?: { ts?: string; thread_ts?: string };
  actions?: { action_id?: string; value?: string }[];
}

/**
 * The Slack events and clicks, each translated into one core call (bolt-js: the transport
 * receives and acknowledges; the rules live in the core).
 */
export function registerSlackListeners(app: App, deps: SlackListenerDeps): void {
  /**
   * T4: a person's message is stored once and acknowledged (with `processBeforeResponse` the
   * ack waits for this write: a failure answers 500 and Slack retries, P6). Nicknames and
   * routing (a direct message's space, P1, in the core) follow from the inbox (`SlackInboxDecoder`).
   */
  const onMessage = async (
    event: SlackMessageEvent,
    teamId: string | undefined,
    eventId: string | undefined,
  ) => {
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
  };

  // T4: messages are taken in by global middleware, ahead of the listeners. Bolt runs every
  // listener's middleware chain for every event (one object spread per step, some fifty an
  // event here): measured on the ingest bench at 800 events/s, that was the largest single cost
  // of an ack. A message ends here; every other event goes on to the listeners below.
  app.use(async ({ body, next }) => {
    const message = personMessageOf(body);
    if (message === null) return next();
    await onMessage(message.event, message.teamId, message.eventId);
  });

  /**
   * A click is acknowledged at once (Slack shows an error after 3 s and never retries a click);
   * its effect (a card edit, a private refusal) follows through the outbox.
   */
  const afterAck = (work: () => Promise<void>) => {
    const running = work().catch((error: unknown) =>
      deps.logger.error({ component: 'slack', err: String(error) }, 'a Slack click failed'),
    );
    deps.inFlight.add(running);
    void running.then(() => deps.inFlight.delete(running));
  };

  const actorOf = (body: ActionBody): PlatformActor | null => {
    const teamId = body.team?.id;
    const userId = body.user?.id;
    if (teamId === undefined || userId === undefined) return null;
    return { platform: 'slack', workspace: { platform: 'slack', externalId: teamId }, senderId: userId };
  };
  const threadOf = (body: ActionBody): string | null => {
    const channel = body.channel?.id ?? body.container?.channel_id;
    const threadTs = body.message?.thread_ts ?? body.container?.thread_ts ?? body.message?.ts;
    return channel === undefined || threadTs === undefined
      ? null
      : encodeSlackThreadId({ channel, threadTs });
  };

  // N7: Open / Fold change only the display; the engine edits the message.
  for (const [actionId, verb] of [
    [ACTIONS.noteOpen, 'open'],
    [ACTIONS.noteFold, 'fold'],
  ] as const) {
    app.action(actionId, async ({ ack, body }) => {
      await ack();
      afterAck(async () => {
        const b = body as ActionBody;
        const actor = actorOf(b);
        const messageId = b.actions?.[0]?.value;
        if (actor === null || messageId === undefined) return;
        try {
          await deps.engine.toggleNote(messageId, verb, actor);
        } catch (error) {
          // A stranger's click, a note that is gone: told to the clicker, nothing changes.
          const thread = threadOf(b);
          if (!(error instanceof AppError) || thread === null) throw error;
          deps.logger.info({ component: 'slack', reason: error.message }, 'note click refused');
          await deps.platform.tellPrivately(thread, actor.senderId, error.message);
        }
      });
    });
  }

  // N13: an option button answers the question; the engine checks who may answer.
  app.action(ANSWER_ACTION, async ({ ack, body }) => {
    await ack();
    afterAck(async () => {
      const b = body as ActionBody;
      const actor = actorOf(b);
      const action = b.actions?.[0];
      const option = ANSWER_ACTION.exec(action?.action_id ?? '')?.[1];
      const questionId = action?.value;
      if (actor === null || option === undefined || questionId === undefined) return;
      const result = await deps.engine.answerQuestion(questionId, option, actor);
      const thread = threadOf(b);
      if (!result.ok && thread !== null) {
        deps.logger.info({ component: 'slack', questionId, reason: result.reason }, 'answer refused');
        await deps.platform.tellPrivately(thread, actor.senderId, result.reason);
      }
    });
  });

  // G4, P5: the engine checks the clicker's role; a refusal is told only to them.
  for (const [actionId, verdict] of [
    [ACTIONS.approve, 'approve'],
    [ACTIONS.deny, 'deny'],
  ] as const) {
    app.action(actionId, async ({ ack, body }) => {
      await ack();
      afterAck(async () => {
        const b = body as ActionBody;
        const actor = actorOf(b);
        const approvalId = b.actions?.[0]?.value;
        if (actor === null || approvalId === undefined) return;
        const result = await deps.engine.decideApproval(approvalId, verdict, actor);
        if (b.container?.type === 'view') {
          // A click on App Home: the home is drawn again, with the refusal if there was one.
          await deps.refreshHome(b.team?.id ?? '', actor.senderId, result.ok ? null : result.reason);
          return;
        }
        const thread = threadOf(b);
        if (!result.ok && thread !== null)
          await deps.platform.tellPrivately(thread, actor.senderId, result.reason);
      });
    });
  }

  // P15: Stop on a status card; the engine checks who may, a refusal is told only to the clicker.
  app.action(ACTIONS.stop, async ({ ack, body }) => {
    await ack();
    afterAck(async () => {
      const b = body as ActionBody;
      const actor = actorOf(b);
      const runId = b.actions?.[0]?.value;
      if (actor === null || runId === undefined) return;
      const result = await deps.engine.stopRun(runId, actor);
      const thread = threadOf(b);
      if (!result.ok && thread !== null) {
        deps.logger.info({ component: 'slack', runId, reason: result.reason }, 'stop refused');
        await deps.platform.tellPrivately(thread, actor.senderId, result.reason);
      }
    });
  });
}
