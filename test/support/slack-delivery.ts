import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const TEAM = 'T0TEAM0001';
export const CHANNEL = 'C0GENERAL1';
export const BOT_USER = 'U0BOT00001';

type Json = Record<string, unknown>;

/** A recorded, anonymised Slack payload from `test/fixtures/slack/`, as a fresh copy. */
export function fixture(name: string): Json {
  const file = path.join(__dirname, '../fixtures/slack', `${name}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Json;
}

/** An event envelope from a fixture with its event's fields (and the event id) replaced. */
export function eventFrom(name: string, event: Json, eventId?: string): Json {
  const envelope = fixture(name);
  return {
    ...envelope,
    event: {
      ...(envelope.event as Json),
      ...event,
      ...(event.ts === undefined ? {} : { event_ts: event.ts }),
    },
    ...(eventId === undefined ? {} : { event_id: eventId }),
  };
}

export function sign(
  body: string,
  timestampSeconds: number,
  secret = SIGNING_SECRET,
): Record<string, string> {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestampSeconds}:${body}`).digest('hex')}`;
  return { 'x-slack-signature': signature, 'x-slack-request-timestamp': String(timestampSeconds) };
}

export interface DeliveryOptions {
  /** X-Slack-Retry-Num (1–3 on Slack's retries). */
  retryNum?: number;
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
  secret?: string;
  signature?: string;
}

const INTERACTIVE_TYPES = new Set([
  'block_actions',
  'view_submission',
  'view_closed',
  'shortcut',
  'message_action',
  'block_suggestion',
]);

/** Posts a signed delivery as Slack does: events as JSON, interactivity as a `payload` form. */
export async function deliver(
  url: string,
  payload: Json,
  options: DeliveryOptions = {},
): Promise<{ status: number; body: string }> {
  // Interactivity: clicks, forms, shortcuts and select-menu options.
  const interactive = INTERACTIVE_TYPES.has(String(payload.type));
  const slash = typeof payload.command === 'string';
  // Slack sends slash commands as a plain form, interactivity as a form with one `payload`.
  const body = slash
    ? new URLSearchParams(payload as Record<string, string>).toString()
    : interactive
      ? new URLSearchParams({ payload: JSON.stringify(payload) }).toString()
      : JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': interactive || slash ? 'application/x-www-form-urlencoded' : 'application/json',
    ...sign(body, options.timestamp ?? Math.floor(Date.now() / 1000), options.secret),
  };
  if (options.signature !== undefined) headers['x-slack-signature'] = options.signature;
  if (options.retryNum !== undefined && options.retryNum > 0) {
    headers['x-slack-retry-num'] = String(options.retryNum);
    headers['x-slack-retry-reason'] = 'http_timeout';
  }
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: await response.text() };
}
