import { DiscordAPIError, HTTPError, RateLimitError, type REST, Routes } from 'discord.js';
import { DeliveryError, type PlatformSender } from '../../../core/outbox/delivery-error';
import type { Logger } from '../../../core/ports/logger';
import { loggable, scrubTokens, UNKNOWN_WEBHOOK } from '../discord-errors';
import type { DirectBody, WebhookBody } from './discord-render';
import type { ChannelWebhook, DiscordWebhooks } from './discord-webhooks';

/**
 * The calls the outbox stores for Discord. No token is stored: a webhook call names its channel,
 * and the channel's webhook (id and token) is looked up when it is sent.
 */
export type DiscordCall =
  | { kind: 'webhook.execute'; payload: { channel: string; thread: string | null; body: WebhookBody } }
  | {
      kind: 'webhook.edit';
      payload: { channel: string; thread: string; messageId: string; body: Omit<WebhookBody, 'username'> };
    }
  | { kind: 'channel-message'; payload: { channel: string; body: DirectBody } }
  | { kind: 'channel-message.edit'; payload: { channel: string; messageId: string; body: DirectBody } }
  | {
      kind: 'direct-message';
      payload: { recipient: string; body: { content: string; allowed_mentions: { parse: [] } } };
    };

export const DISCORD_CALLS: readonly DiscordCall['kind'][] = [
  'webhook.execute',
  'webhook.edit',
  'direct-message',
];

interface MessageResponse {
  id: string;
}

/**
 * P7: sends one stored Discord call. Its REST client is built with no retries and rejects every
 * rate limit (`rejectOnRateLimit`), so a 429 (Retry-After, `X-RateLimit-*`), a 5xx and a network
 * error come back here and the outbox decides: wait, back off, or never send again. A channel
 * webhook someone deleted is replaced once, so posting goes on. Errors carry no token.
 */
export class DiscordSender implements PlatformSender {
  constructor(
    private readonly rest: REST,
    private readonly webhooks: DiscordWebhooks,
    private readonly logger: Logger,
  ) {}

  async send(kind: string, payload: unknown): Promise<string | null> {
    const call = { kind, payload } as DiscordCall;
    try {
      switch (call.kind) {
        case 'webhook.execute': {
          const { channel, thread, body } = call.payload;
          const query = new URLSearchParams({
            wait: 'true',
            ...(thread === null ? {} : { thread_id: thread }),
          });
          const posted = (await this.throughWebhook(channel, (w) =>
            this.rest.post(Routes.webhook(w.id, w.token), { body, query, auth: false }),
          )) as MessageResponse;
          return posted.id;
        }
        case 'webhook.edit': {
          const { channel, thread, messageId, body } = call.payload;
          await this.throughWebhook(channel, (w) =>
            this.rest.patch(Routes.webhookMessage(w.id, w.token, messageId), {
              body,
              query: new URLSearchParams({ thread_id: thread }),
              auth: false,
            }),
          );
          return messageId;
        }
        // P1: in a direct message the bot posts and edits as itself.
        case 'channel-message': {
          const { channel, body } = call.payload;
          const posted = (await this.rest.post(Routes.channelMessages(channel), { body })) as MessageResponse;
          return posted.id;
        }
        case 'channel-message.edit': {
          const { channel, messageId, body } = call.payload;
          await this.rest.patch(Routes.channelMessage(channel, messageId), { body });
          return messageId;
        }
        case 'direct-message': {
          const { recipient, body } = call.payload;
          const dm = (await this.rest.post(Routes.userChannels(), {
            body: { recipient_id: recipient },
          })) as MessageResponse;
          const posted = (await this.rest.post(Routes.channelMessages(dm.id), { body })) as MessageResponse;
          return posted.id;
        }
        default:
          throw new DeliveryError(`Not a Discord call the outbox makes: ${kind}.`, { kind: 'never' });
      }
    } catch (error) {
      throw toDeliveryError(kind, error);
    }
  }

  private async throughWebhook<T>(
    channel: string,
    request: (webhook: ChannelWebhook) => Promise<T>,
  ): Promise<T> {
    try {
      return await request(await this.webhooks.forChannel(channel));
    } catch (error) {
      if (!(error instanceof DiscordAPIError) || error.code !== UNKNOWN_WEBHOOK) throw error;
      this.logger.warn({ channel }, 'the channel’s webhook was deleted; making a new one');
      this.webhooks.forget(channel);
      return request(await this.webhooks.forChannel(channel));
    }
  }
}

/** Discord's answer as the outbox's advice; the message carries no token. */
export function toDeliveryError(kind: string, error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  // The cause may be logged: Discord's error without the URL's token; other errors (rate
  // limits, HTTP and network errors carry the URL as a property) as their scrubbed message only.
  const cause =
    error instanceof DiscordAPIError
      ? loggable(error)
      : new Error(scrubTokens(error instanceof Error ? error.message : String(error)));
  if (error instanceof RateLimitError) {
    const ms = Math.max(error.retryAfter, error.sublimitTimeout, 0) || error.timeToReset;
    return new DeliveryError(
      `${kind}: rate limited by Discord (${error.global ? 'global' : error.route}, ${error.scope})`,
      { kind: 'after', ms: Math.max(ms, 0) },
      { cause },
    );
  }
  if (error instanceof HTTPError)
    return new DeliveryError(
      `${kind}: Discord answered HTTP ${error.status}`,
      retryableStatus(error.status) ? { kind: 'backoff' } : { kind: 'never' },
      { cause },
    );
  if (error instanceof DiscordAPIError)
    return new DeliveryError(
      `${kind}: Discord refused the call (${error.code}: ${scrubTokens(error.message)})`,
      retryableStatus(error.status) ? { kind: 'backoff' } : { kind: 'never' },
      { cause },
    );
  // fetch failed, timed out, connection reset: Discord may not have seen it; try again later.
  const message = error instanceof Error ? scrubTokens(error.message) : String(error);
  return new DeliveryError(
    `${kind}: Discord could not be reached (${message})`,
    { kind: 'backoff' },
    { cause },
  );
}

/** P7: a 5xx or a 408 is Discord's trouble of the moment; any other 4xx is a final refusal. */
const retryableStatus = (status: number) => status >= 500 || status === 408;
