import { DiscordAPIError } from 'discord.js';

/** Webhook and interaction tokens sit in request paths; they are secrets and never reach a log. */
const TOKEN_IN_PATH = /\/(webhooks|interactions)\/([0-9]+)\/[^/?\s"]+/g;

export const scrubTokens = (text: string): string => text.replace(TOKEN_IN_PATH, '/$1/$2/[redacted]');

/** A failed Discord request, as it may be logged: status, Discord's code and message, no token. */
export class DiscordRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | string,
    readonly request: string,
  ) {
    super(message);
    this.name = 'DiscordRequestError';
  }
}

/** The error as it may be logged or passed on: a Discord request's without the tokens of its URL. */
export function loggable(error: unknown): unknown {
  if (error instanceof DiscordAPIError) {
    return new DiscordRequestError(
      scrubTokens(error.message),
      error.status,
      error.code,
      `${error.method} ${scrubTokens(error.url)}`,
    );
  }
  if (error instanceof Error && scrubTokens(error.message) !== error.message) {
    return new Error(scrubTokens(error.message));
  }
  return error;
}

/** Runs a Discord request; an error it throws comes back without the tokens of its URL. */
export async function withoutTokens<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw loggable(error);
  }
}

/** Discord's JSON error code for "Unknown Webhook" (deleted by someone in the channel). */
export const UNKNOWN_WEBHOOK = 10015;
