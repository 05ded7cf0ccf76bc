import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** O5: the session cookie: the session's token and its signature. */
export const SESSION_COOKIE = 'summon_console';
/** O5: the sign-in attempt in flight: its platform, state and nonce, signed, for ten minutes. */
export const SIGN_IN_COOKIE = 'summon_console_sign_in';

/** 32 random bytes, base64url: a session token, a link token, a state, a nonce or a CSRF token. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** O5: HMAC-SHA-256 signatures for the console's cookies, with the server's key. */
export class CookieSigner {
  constructor(private readonly key: Buffer) {}

  /** `value.signature`. */
  sign(value: string): string {
    return `${value}.${this.mac(value)}`;
  }

  /** The value of a signed text, or null when the signature does not match (forged or another key's). */
  verify(signed: string | undefined): string | null {
    if (signed === undefined) return null;
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    return sameText(signed.slice(dot + 1), this.mac(value)) ? value : null;
  }

  private mac(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}

/** Equal texts, compared in constant time (CSRF tokens, states, signatures). */
export function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The request's cookies by name (the first of a repeated name). */
export function readCookies(request: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
}

/**
 * O5: a `Set-Cookie` for the console: `HttpOnly`, `SameSite=Lax` (a link from chat still signs
 * in; another site's POST carries no cookie), `Secure` when the public URL is HTTPS, on `/console`.
 */
export function consoleCookie(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; secure: boolean },
): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/console',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.round(options.maxAgeSeconds))}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}
