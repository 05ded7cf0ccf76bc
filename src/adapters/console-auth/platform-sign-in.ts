import { AppError } from '../../core/errors';

/** O5: the platform account a person signed in with, as the platform vouched for it. */
export type SignedInAccount =
  | { platform: 'slack'; userId: string; teamId: string; name: string }
  | { platform: 'discord'; userId: string; name: string };

/** O5: one platform's sign-in: where to send the person, and what their return proves. */
export interface PlatformSignIn {
  readonly platform: 'slack' | 'discord';
  /** The platform's authorization page for this attempt (`state`, and `nonce` where the platform takes one). */
  authorizeUrl(attempt: { state: string; nonce: string; redirectUri: string }): string;
  /**
   * Exchanges the code the platform sent back (single-use there) for the account. A refusal is
   * an `AppError` whose message is the sentence to show; no token or code is ever in it.
   */
  complete(attempt: { code: string; nonce: string; redirectUri: string }): Promise<SignedInAccount>;
}

/** How long one call to a platform may take before the sign-in is given up. */
export const SIGN_IN_CALL_TIMEOUT_MS = 10_000;

/** A refusal of the sign-in, in words for the person at the browser. */
export const signInRefused = (sentence: string): AppError => new AppError(sentence, 'forbidden');

/** The JSON a platform answered, or a refusal naming the platform and the HTTP status. */
export async function platformJson(platform: string, response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    // Fall through to the refusal below: a non-JSON answer is not a sign-in.
  }
  throw signInRefused(`${platform} answered the sign-in with HTTP ${response.status} and no JSON.`);
}

/** The text at `key`, or null. */
export const field = (body: Record<string, unknown>, key: string): string | null => {
  const value = body[key];
  return typeof value === 'string' && value !== '' ? value : null;
};

/** The claims of a JWT's payload (no signature check: the caller got it straight from the platform over TLS). */
export function jwtClaims(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
