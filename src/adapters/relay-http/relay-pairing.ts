import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RelayLevel } from '../../core/model/relay-level';
import type { PairRequest } from '../../core/model/relay-protocol';
import type { RelayPairingRecord } from '../../core/model/relay-records';
import type { Clock } from '../../core/ports/clock';
import type { Store } from '../../core/ports/store';
import { pairResponse, RELAY_PATH_PREFIX, RelayRefusal } from '../../core/relays/relay-protocol';
import { newKeyPair, signedHeaders } from './relay-signature';

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

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

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

/** R1, side A: a one-time offer granting `level` to whoever accepts it. */
export async function createOffer(
  deps: { store: Store; clock: Clock },
  workspaceId: string,
  self: { relay: string; url: string },
  level: RelayLevel,
): Promise<{ text: string; expiresAt: Date }> {
  const secret = randomBytes(24).toString('base64url');
  const expiresAt = new Date(deps.clock.now().getTime() + OFFER_TTL_MS);
  const { offer, keys } = await deps.store.inWorkspace(workspaceId, async (tx) => ({
    keys: await tx.relays.keyPair(workspaceId, newKeyPair),
    offer: await tx.relays.insertOffer(workspaceId, { secretHash: hashSecret(secret), level, expiresAt }),
  }));
  return {
    text: encodeOffer({
      v: 1,
      relay: self.relay,
      url: self.url,
      offer: offer.id,
      secret,
      publicKey: keys.publicKey,
    }),
    expiresAt,
  };
}

/** R1, side A: completes an offer for the relay that presents it (the request is verified by the caller). */
export async function completeOffer(
  deps: { store: Store; clock: Clock; relayName: string | null },
  request: PairRequest,
): Promise<{ pairingId: string; relay: string; grants: RelayLevel }> {
  const offer = await deps.store.transaction((tx) => tx.relays.findOffer(request.offer));
  const valid =
    offer !== null &&
    hashSecret(request.secret).length === offer.secretHash.length &&
    timingSafeEqual(Buffer.from(hashSecret(request.secret)), Buffer.from(offer.secretHash));
  if (offer === null || !valid)
    throw new RelayRefusal('unknown_pairing', 'That pairing offer is not known here.');
  const now = deps.clock.now();
  if (offer.usedAt !== null)
    throw new RelayRefusal('offer_used', 'That pairing offer was used already; make a new one.');
  if (offer.expiresAt.getTime() <= now.getTime())
    throw new RelayRefusal('stale_timestamp', 'That pairing offer has expired; make a new one.');
  return deps.store.inWorkspace(offer.workspaceId, async (tx) => {
    if (await tx.relays.findActiveByName(offer.workspaceId, request.relay))
      throw new RelayRefusal(
        'offer_used',
        `This workspace is paired with a relay named ${request.relay} already; revoke that pairing first.`,
      );
    if (!(await tx.relays.useOffer(offer.id, now)))
      throw new RelayRefusal('offer_used', 'That pairing offer was used already; make a new one.');
    const pairing = await tx.relays.insertPairing(offer.workspaceId, {
      remoteName: request.relay,
      remoteUrl: request.url,
      remotePublicKey: request.publicKey,
      remotePairingId: request.pairingId,
      remoteGrants: request.grants,
    });
    await acceptRelay(tx, offer.workspaceId, request.relay, offer.level);
    return { pairingId: pairing.id, relay: deps.relayName ?? 'this relay', grants: offer.level };
  });
}

/** R1: the workspace accepts `relay` at `level` (the workspace file's `relays.accept`). */
export async function acceptRelay(
  tx: Parameters<Parameters<Store['transaction']>[0]>[0],
  workspaceId: string,
  relay: string,
  level: RelayLevel,
): Promise<void> {
  const settings = await tx.relays.settings(workspaceId);
  const accepted = settings.accepted.filter((a) => a.relay.toLowerCase() !== relay.toLowerCase());
  await tx.relays.setSettings(workspaceId, { ...settings, accepted: [...accepted, { relay, level }] });
}

/**
 * R1, side B: accepts an offer: stores the pairing with A's key, then calls A's public URL to
 * complete it (signed with B's key for the offer); A's pairing id is kept for B's requests.
 */
export async function acceptOffer(
  deps: { store: Store; clock: Clock },
  workspaceId: string,
  offer: RelayOffer,
  self: { relay: string; url: string | null },
  grants: RelayLevel,
): Promise<RelayPairingRecord> {
  const { pairing, keys } = await deps.store.inWorkspace(workspaceId, async (tx) => {
    if (await tx.relays.findActiveByName(workspaceId, offer.relay))
      throw new Error(`this workspace is paired with a relay named ${offer.relay} already; revoke it first.`);
    const made = await tx.relays.insertPairing(workspaceId, {
      remoteName: offer.relay,
      remoteUrl: offer.url,
      remotePublicKey: offer.publicKey,
      remotePairingId: null,
      remoteGrants: null,
    });
    return { pairing: made, keys: await tx.relays.keyPair(workspaceId, newKeyPair) };
  });
  const body = JSON.stringify({
    offer: offer.offer,
    secret: offer.secret,
    relay: self.relay,
    url: self.url,
    publicKey: keys.publicKey,
    pairingId: pairing.id,
    grants,
  } satisfies PairRequest);
  const path = `${RELAY_PATH_PREFIX}pair`;
  const headers = signedHeaders(
    keys.privateKey,
    { method: 'POST', path, keyId: offer.offer, body },
    deps.clock.now(),
  );
  const fail = async (reason: string): Promise<never> => {
    await deps.store.inWorkspace(workspaceId, (tx) => tx.relays.revoke(pairing.id, deps.clock.now()));
    throw new Error(reason);
  };
  let response: Response;
  try {
    response = await fetch(`${offer.url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return fail(
      `relay ${offer.relay} could not be reached at ${offer.url} (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const answer: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      (answer as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${response.status}`;
    return fail(`relay ${offer.relay} refused the pairing: ${message}`);
  }
  const parsed = pairResponse.safeParse(answer);
  if (!parsed.success)
    return fail(`relay ${offer.relay} answered the pairing in a form this relay does not read.`);
  await deps.store.inWorkspace(workspaceId, async (tx) => {
    await tx.relays.completePairing(pairing.id, parsed.data.pairingId, parsed.data.grants);
    await acceptRelay(tx, workspaceId, offer.relay, grants);
  });
  return { ...pairing, remotePairingId: parsed.data.pairingId, remoteGrants: parsed.data.grants };
}
