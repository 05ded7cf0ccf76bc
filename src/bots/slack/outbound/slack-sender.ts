import type { webApi } from '@slack/bolt';
import { DeliveryError, type PlatformSender } from '../../../core/outbox/delivery-error';

/** The Web API methods the outbox may call. */
export const SLACK_CALLS = [
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  // P14: a streamed reply.
  'chat.startStream',
  'chat.appendStream',
  'chat.stopStream',
  // P15: the thread's agent session status.
  'agents.sessions.setStatus',
] as const;

/**
 * P7, P14: an append or stop that failed with a 5xx or a lost connection may have reached Slack;
 * sent again it could show its text twice. Only a 429 (Slack took nothing) is tried again; the
 * stream itself goes on in a new message with what was not confirmed.
 */
const NOT_REPEATABLE = new Set<string>(['chat.appendStream', 'chat.stopStream']);
export type SlackCall = (typeof SLACK_CALLS)[number];

/** Platform errors that are Slack's trouble, not the call's: worth another try. */
const TRANSIENT = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);

/**
 * P7: sends one stored Web API call with the bot's client. The client is built with
 * `rejectRateLimitedCalls` and no retries of its own, so every 429, 5xx and network error
 * comes back here and the outbox decides (Retry-After, backoff, never twice).
 */
export class SlackSender implements PlatformSender {
  constructor(private readonly client: webApi.WebClient) {}

  async send(kind: string, payload: unknown): Promise<string | null> {
    if (!(SLACK_CALLS as readonly string[]).includes(kind)) {
      throw new DeliveryError(`Not a Slack call the outbox makes: ${kind}.`, { kind: 'never' });
    }
    try {
      const result = (await this.client.apiCall(kind, payload as Record<string, unknown>)) as {
        ts?: unknown;
        message_ts?: unknown;
      };
      const ref = result.ts ?? result.message_ts;
      return typeof ref === 'string' ? ref : null;
    } catch (error) {
      const failure = toDeliveryError(kind, error);
      if (NOT_REPEATABLE.has(kind) && failure.retry.kind === 'backoff') {
        throw new DeliveryError(failure.message, { kind: 'never' }, { cause: error });
      }
      throw failure;
    }
  }
}

interface SlackClientError {
  code?: string;
  retryAfter?: number;
  statusCode?: number;
  data?: { error?: string };
  message?: string;
}

export function toDeliveryError(kind: string, error: unknown): DeliveryError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SlackClientError;
  switch (e.code) {
    case 'slack_webapi_rate_limited_error':
      return new DeliveryError(
        `${kind}: rate limited by Slack`,
        { kind: 'after', ms: (e.retryAfter ?? 1) * 1000 },
        { cause: error },
      );
    case 'slack_webapi_http_error':
      return new DeliveryError(
        `${kind}: Slack answered HTTP ${e.statusCode ?? '?'}`,
        retryableStatus(e.statusCode ?? 500) ? { kind: 'backoff' } : { kind: 'never' },
        { cause: error },
      );
    // P7: refused, reset or timed out: Slack may be away for a while; the outbox waits it out.
    case 'slack_webapi_request_error':
      return new DeliveryError(`${kind}: Slack could not be reached`, { kind: 'backoff' }, { cause: error });
    case 'slack_webapi_platform_error': {
      const code = e.data?.error ?? 'unknown_error';
      return new DeliveryError(
        `${kind}: Slack refused the call (${code})`,
        TRANSIENT.has(code) ? { kind: 'backoff' } : { kind: 'never' },
        { cause: error },
      );
    }
    default:
      return new DeliveryError(`${kind}: ${e.message ?? String(error)}`, { kind: 'never' }, { cause: error });
  }
}

/** P7: a 5xx or a 408 is Slack's trouble of the moment; any other 4xx is a final refusal. */
const retryableStatus = (status: number) => status >= 500 || status === 408;
