/** E5: AES-256 needs exactly this many bytes of key. */
export const SECRET_KEY_BYTES = 32;

/** E5: how an operator makes a key, quoted wherever one is asked for. */
export const MAKE_SECRET_KEY = 'openssl rand -base64 32';

/**
 * E5: `SUMMON_SECRET_KEY`, the key that encrypts what Summon stores of other services'
 * credentials (OAuth tokens, client secrets). 32 bytes, written as 64 hex digits or in base64
 * (standard or URL-safe). A malformed key refuses the start: a key silently ignored would
 * leave nothing decryptable. The value is never quoted back (it is a secret).
 */
export function parseSecretKey(value: string | undefined): Buffer | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text)
      ? Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64')
      : undefined;
  if (key === undefined || key.length !== SECRET_KEY_BYTES) {
    throw new Error(
      `SUMMON_SECRET_KEY must be ${SECRET_KEY_BYTES} bytes written as 64 hex digits or in base64 (make one with \`${MAKE_SECRET_KEY}\`); the value set (${text.length} characters) is ${key === undefined ? 'neither' : `${key.length} bytes`}`,
    );
  }
  return key;
}
