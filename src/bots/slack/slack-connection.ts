import { App, HTTPReceiver, SocketModeReceiver, webApi } from '@slack/bolt';
import type { Logger } from '../../core/ports/logger';
import { boltLogger } from './slack-bolt-logger';
import { quietRefusals } from './slack-refusals';

export const SLACK_EVENTS_PATH = '/slack/events';

export interface SlackCredentials {
  botToken: string;
  /** HTTP mode: Bolt verifies every request's signature with it. */
  signingSecret: string | undefined;
  /** Socket Mode when set (no public URL needed). */
  appToken: string | undefined;
  /** The Web API base URL (tests, Slack-compatible servers). */
  apiUrl: string | undefined;
}

export interface SlackConnectOptions {
  credentials: SlackCredentials;
  logger: Logger;
  /** Socket Mode: how long a ping may go unanswered (`SlackFrontEndOptions.socketPingTimeoutMs`). */
  socketPingTimeoutMs?: number;
  /** P7: how long a Web API call may go unanswered (`SlackFrontEndOptions.requestTimeoutMs`). */
  requestTimeoutMs?: number;
  /** T3: how Web API calls are made, bounded by that wait (`SlackFrontEndOptions.httpFetch`). */
  httpFetch?: HttpFetchFactory;
}

/** A `fetch` whose calls fail once their connection stays silent `idleTimeoutMs` (the app's lean one). */
export type HttpFetchFactory = (idleTimeoutMs: number) => typeof fetch;

/**
 * P7: a Web API call Slack accepted but never answers fails after this long, as a lost connection
 * does, and the outbox tries it again: without a bound, one stalled connection holds its thread's
 * outgoing calls (and every reply queued behind them) for as long as the socket stays open.
 */
export const SLACK_REQUEST_TIMEOUT_MS = 30_000;

/** Slack's answers that mean the token itself is no good: retrying cannot help. */
const DEAD_TOKEN = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'account_inactive',
  'token_expired',
]);

/** Whether Slack's error code says the token itself is no good. */
export const isDeadToken = (code: string | undefined): code is string =>
  code !== undefined && DEAD_TOKEN.has(code);

/** The Bolt app and Web API clients of one bot token, and who the bot is. */
export interface SlackConnection {
  app: App;
  /** HTTP mode's receiver; null in Socket Mode. */
  receiver: HTTPReceiver | null;
  /** Socket Mode's receiver; null over HTTP. */
  socket: SocketModeReceiver | null;
  identity: { teamId: string; botUserId: string; botId: string };
  client: webApi.WebClient;
  /** P11: reads history for the back-fill, waiting out 429s (Retry-After) as the outbox does not. */
  historyClient: webApi.WebClient;
}

/**
 * Checks the bot token with `auth.test`, then builds the app. An invalid or revoked token is
 * one clear log line and no connection (null): no retry loop against a dead credential.
 */
export async function connectSlack(options: SlackConnectOptions): Promise<SlackConnection | null> {
  const { credentials } = options;
  const log = options.logger.child({ component: 'slack' });
  const logger = boltLogger(log);
  const timeoutMs = options.requestTimeoutMs ?? SLACK_REQUEST_TIMEOUT_MS;
  const clientOptions: webApi.WebClientOptions = {
    ...(credentials.apiUrl === undefined ? {} : { slackApiUrl: credentials.apiUrl }),
    // P7: the outbox handles 429s and retries; the client must hand them back at once.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    // T3: with the app's fetch, that fetch bounds a call; the client's own bound is a timeout
    // signal per call, whose objects outlive the call (`src/adapters/http/lean-fetch.ts`).
    ...(options.httpFetch === undefined
      ? { timeout: timeoutMs }
      : { timeout: 0, fetch: options.httpFetch(timeoutMs) }),
    logger,
  };
  const client = new webApi.WebClient(credentials.botToken, clientOptions);
  let auth: { user_id?: string; bot_id?: string; team_id?: string };
  try {
    auth = await client.auth.test();
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    if (isDeadToken(code)) {
      log.error(
        { slackError: code },
        `Slack refused SLACK_BOT_TOKEN (${code}): the Slack front end is not started`,
      );
      return null;
    }
    throw error;
  }
  if (auth.user_id === undefined || auth.bot_id === undefined || auth.team_id === undefined) {
    log.error(
      {},
      'SLACK_BOT_TOKEN is not a bot token (auth.test named no bot): the Slack front end is not started',
    );
    return null;
  }
  const identity = { teamId: auth.team_id, botUserId: auth.user_id, botId: auth.bot_id };
  const { app, receiver, socket } = boltApp(options, identity, clientOptions, logger);
  quietRefusals.app(app, log);
  const historyClient = new webApi.WebClient(credentials.botToken, {
    ...clientOptions,
    // P11: the WebClient sleeps for Slack's Retry-After on a 429 and tries again.
    retryConfig: webApi.retryPolicies.fiveRetriesInFiveMinutes,
    rejectRateLimitedCalls: false,
  });
  return { app, receiver, socket, identity, client, historyClient };
}

/** The Bolt app over Socket Mode (an app token) or over HTTP on Summon's server (a signing secret). */
function boltApp(
  options: SlackConnectOptions,
  identity: SlackConnection['identity'],
  clientOptions: webApi.WebClientOptions,
  logger: ReturnType<typeof boltLogger>,
): Pick<SlackConnection, 'app' | 'receiver' | 'socket'> {
  const { credentials } = options;
  const common = {
    token: credentials.botToken,
    botId: identity.botId,
    botUserId: identity.botUserId,
    clientOptions,
    logger,
    // T4: no conversation store: Summon keeps none in Bolt, and its default rejects with a new
    // Error (a stack trace) on every event that names a channel.
    convoStore: false as const,
  };
  let app: App;
  let receiver: HTTPReceiver | null = null;
  let socket: SocketModeReceiver | null = null;
  if (credentials.appToken !== undefined) {
    // Built here rather than by Bolt, so its client's `connected` (each new connection) is ours (P11).
    socket = new SocketModeReceiver({
      appToken: credentials.appToken,
      logger,
      ...(options.socketPingTimeoutMs === undefined
        ? {}
        : { clientPingTimeout: options.socketPingTimeoutMs }),
      installerOptions: { clientOptions },
      processEventErrorHandler: quietRefusals.socket,
    });
    app = new App({ ...common, receiver: socket, socketMode: true });
    ackEventsOnceProcessed(app);
  } else {
    if (credentials.signingSecret === undefined) {
      throw new Error(
        'SLACK_SIGNING_SECRET is required for Slack over HTTP (or set SLACK_APP_TOKEN for Socket Mode).',
      );
    }
    receiver = new HTTPReceiver({
      signingSecret: credentials.signingSecret,
      endpoints: SLACK_EVENTS_PATH,
      // T4: the ack waits for the event to be stored (one write): a failure answers 500 and
      // Slack retries (P6); routing follows from the inbox.
      processBeforeResponse: true,
      processEventErrorHandler: quietRefusals.http,
      logger,
    });
    app = new App({ ...common, receiver });
  }
  return { app, receiver, socket };
}

/**
 * T4, T2: over Socket Mode an Events API envelope is acknowledged once the event is stored, as
 * over HTTP (`processBeforeResponse`). Bolt acknowledges it before any middleware runs, so an
 * event the database refused would be acknowledged and lost; held until the listeners are done,
 * a refused one goes unacknowledged and Slack sends it again (`retry_attempt`, P6 de-duplicates).
 * Clicks and commands keep Bolt's own ack: their listeners answer within Slack's 3 seconds.
 */
function ackEventsOnceProcessed(app: App): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = async (event) => {
    if (event.body.type !== 'event_callback') return processEvent(event);
    let held: unknown[] | null = null;
    await processEvent({
      ...event,
      ack: async (...response: unknown[]) => {
        held = response;
      },
    });
    await event.ack(...(held ?? []));
  };
}
