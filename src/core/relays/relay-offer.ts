import { createHash, timingSafeEqual } from 'node:crypto';

/** R1: an offer is good for this long, once. */
export const OFFER_TTL_MS = 15 * 60_000;
const OFFER_PREFIX = 'summon-relay-offer:';

/** What side A prints and side B pastes: A's address, name, key, and the one-time secret. */
export interface RelayOffer {
  v: 1;
  relay: string;
  url: string;
  offer: string;
  secret: string;
  publicKey: string;
}

/** R1: an offer's secret is stored only as this hash. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** R1: whether `secret` is the one whose hash was stored, compared in constant time. */
export function secretMatches(secret: string, secretHash: string): boolean {
  const presented = hashSecret(secret);
  return (
    presented.length === secretHash.length && timingSafeEqual(Buffer.from(presented), Buffer.from(secretHash))
  );
}

export function encodeOffer(offer: RelayOffer): string {
  return `${OFFER_PREFIX}${Buffer.from(JSON.stringify(offer)).toString('base64url')}`;
}

/** A pasted offer, or a sentence saying what is wrong with it. */
export function decodeOffer(text: string): RelayOffer | string {
  const trimmed = text.trim();
  if (!trimmed.startsWith(OFFER_PREFIX))
    return `a pairing offer starts with "${OFFER_PREFIX}"; paste the whole line that \`summon relays pair\` printed on the other relay.`;
  try {
    const offer = JSON.parse(
      Buffer.from(trimmed.slice(OFFER_PREFIX.length), 'base64url').toString(),
    ) as RelayOffer;
    const fields = [offer.relay, offer.url, offer.offer, offer.secret, offer.publicKey];
    if (offer.v !== 1 || fields.some((f) => typeof f !== 'string' || f === ''))
      return 'the pairing offer is incomplete or of another version; make a new one on the other relay.';
    return offer;
  } catch {
    return 'the pairing offer does not read (cut short when pasted?); paste the whole line again.';
  }
}
