import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * E5: what Summon stores of other services' credentials, sealed with AES-256-GCM under
 * `SUMMON_SECRET_KEY`. Each value is bound to where it is stored (`context`: the workspace,
 * server and owner) as additional data, so a sealed value copied into another row does not
 * open. Sealed: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext; throws a sentence when the value was sealed under another key or context. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('a stored secret is not in a form Summon seals');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new Error(
        'a stored secret does not open with SUMMON_SECRET_KEY: the key changed since it was stored (authorize again)',
      );
    }
  }
}

/** E5: a one-way digest for values looked up but never read back (an authorization's state). */
export const digest = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('base64url');
