import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import type { RelayKeyPair } from '../../core/model/relays/relay-records';

/**
 * R1: the request envelope of the relay protocol (`docs/relays.md`). Ed25519 through
 * `node:crypto` (OpenSSL), no primitive of our own: `jose` 6 is ESM-only and does not load in
 * this CommonJS build, and the envelope needs only a detached signature over fixed fields.
 *
 * Signed string, fields joined by `\n`:
 * `summon-relay-v1`, method, path, key id (the receiver's pairing id), timestamp (Unix ms),
 * nonce, SHA-256 of the body (base64url).
 */
export const HEADERS = {
  version: 'summon-relay-version',
  key: 'summon-relay-key',
  timestamp: 'summon-relay-timestamp',
  nonce: 'summon-relay-nonce',
  signature: 'summon-relay-signature',
} as const;

export interface SignedFields {
  method: string;
  path: string;
  keyId: string;
  timestamp: string;
  nonce: string;
  body: string;
}

export function newKeyPair(): RelayKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function signingString(fields: SignedFields): string {
  const digest = createHash('sha256').update(fields.body).digest('base64url');
  return [
    'summon-relay-v1',
    fields.method.toUpperCase(),
    fields.path,
    fields.keyId,
    fields.timestamp,
    fields.nonce,
    digest,
  ].join('\n');
}

export function signRequest(privateKeyPem: string, fields: SignedFields): string {
  return sign(null, Buffer.from(signingString(fields)), createPrivateKey(privateKeyPem)).toString(
    'base64url',
  );
}

/** False for a wrong signature, a malformed one, or a key that does not parse. */
export function verifyRequest(publicKeyPem: string, fields: SignedFields, signature: string): boolean {
  try {
    const key = createPublicKey(publicKeyPem);
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(signingString(fields)), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** A fresh nonce: 16 random bytes, base64url. */
export function newNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** The headers of a signed request. */
export function signedHeaders(
  privateKeyPem: string,
  fields: Omit<SignedFields, 'timestamp' | 'nonce'>,
  now: Date,
) {
  const timestamp = String(now.getTime());
  const nonce = newNonce();
  const signature = signRequest(privateKeyPem, { ...fields, timestamp, nonce });
  return {
    [HEADERS.version]: '1',
    [HEADERS.key]: fields.keyId,
    [HEADERS.timestamp]: timestamp,
    [HEADERS.nonce]: nonce,
    [HEADERS.signature]: signature,
  };
}
