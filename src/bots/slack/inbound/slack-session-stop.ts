import type { App } from '@slack/bolt';
import type { ChatDirectory } from '../../../core/ports/chat-directory';
import type { ChatEngine, PlatformActor } from '../../../core/ports/chat-engine';
import type { Logger } from '../../../core/ports/logger';
import type { SlackPlatform } from '../slack-platform';
import { encodeSlackThreadId } from '../slack-thread-id';
import { isForeignChannel } from './slack-foreign-team';

export interface SlackSessionStopDeps {
  engine: ChatEngine;
  platform: SlackPlatform;
  /** A2: which team's workspace owns the session's channel. */
  directory: ChatDirectory;
  logger: Logger;
  /** Work still on its way after the ack; closing waits for it. */
  inFlight: Set<Promise<void>>;
}

/** What `agent_session_stopped` carries (https://docs.slack.dev/reference/events/agent_session_stopped). */
interface SessionStopped {
  channel?: unknown;
  thread_ts?: unknown;
  user?: unknown;
  streaming_message_ts?: unknown;
}

/**
 * P15 on Slack: the native Stop of an agent session is the card's Stop for the whole thread.
 * The event names the person who pressed it (`user`), so the same rule applies (the starter,
 * owners, admins, approvers: `ChatEngine.act`, `stop-thread`); a refusal is told to them privately and
 * the turn goes on. Acknowledged at once; the stop follows. Slack has already stopped the
 * thread's streams (`streaming_message_ts`) and leaves the session's status to the app: a
 * stopped turn closes it as it ends, a refused stop leaves the turn working (its reply goes on
 * in a new message), and a session with nothing running here is closed. A2, P8: a Stop of one
 * team in a thread another team's workspace owns stops nothing and says nothing there.
 */
export function registerSessionStop(app: App, deps: SlackSessionStopDeps): void {
  app.event('agent_session_stopped', async ({ event, body }) => {
    const stopped = event as SessionStopped;
    const teamId = body.team_id;
    const { channel, thread_ts: threadTs, user } = stopped;
    const log = deps.logger.child({ component: 'slack', eventId: body.event_id, channel });
    if (
      typeof teamId !== 'string' ||
      typeof channel !== 'string' ||
      typeof threadTs !== 'string' ||
      typeof user !== 'string'
    ) {
      log.warn(
        { threadTs, user },
        'an agent_session_stopped event without its team, channel, thread or user was ignored',
      );
      return;
    }
    const thread = encodeSlackThreadId({ channel, threadTs });
    const actor: PlatformActor = {
      platform: 'slack',
      workspace: { platform: 'slack', externalId: teamId },
      senderId: user,
    };
    const work = (async () => {
      const request = { teamId, channel, what: 'agent session stop' };
      if (await isForeignChannel(deps.directory, request, deps.logger)) return;
      const result = await deps.engine.act({ kind: 'stop-thread', thread }, actor);
      if (result.ok) {
        log.info({ user, stopped: result.stopped }, 'agent session stopped in Slack: turns stopping');
        return;
      }
      if (result.running === 0) {
        await deps.platform.closeSession(thread);
        return;
      }
      log.info({ user, reason: result.reason }, 'agent session stop refused');
      await deps.platform.tellPrivately(thread, user, result.reason);
    })().catch((error: unknown) => log.error({ err: String(error) }, 'an agent session stop failed'));
    deps.inFlight.add(work);
    void work.then(() => deps.inFlight.delete(work));
  });
}
