import { randomBytes } from 'node:crypto';
import { relayChanged } from '../audit/audit-entries';
import type { RelayLevel } from '../model/relays/relay-level';
import type { PairRequest } from '../model/relays/relay-protocol';
import type { RelayPairingRecord } from '../model/relays/relay-records';
import type { Clock } from '../ports/clock';
import type { RelayPairingChannel } from '../ports/relay-pairing';
import type { Store, StoreTx } from '../ports/store';
import { encodeOffer, hashSecret, OFFER_TTL_MS, type RelayOffer, secretMatches } from './relay-offer';
import { RelayRefusal } from './relay-protocol';

/** What pairing works with: the store's `relays`, the time, and the channel to the other side. */
export interface RelayPairingDeps {
  store: Store;
  clock: Clock;
  channel: RelayPairingChannel;
}

/** R1, side A: a one-time offer granting `level` to whoever accepts it; its secret is stored hashed. */
export async function createOffer(
  deps: RelayPairingDeps,
  workspaceId: string,
  self: { relay: string; url: string },
  level: RelayLevel,
): Promise<{ text: string; expiresAt: Date }> {
  const secret = randomBytes(24).toString('base64url');
  const expiresAt = new Date(deps.clock.now().getTime() + OFFER_TTL_MS);
  const { offer, keys } = await deps.store.inWorkspace(workspaceId, async (tx) => ({
    keys: await tx.relays.keyPair(workspaceId, () => deps.channel.newKeyPair()),
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

/**
 * R1, side A: completes an offer for the relay that presents it (the request's signature is
 * verified by the caller): the offer must be known, unused and unexpired, and the workspace
 * not paired with a relay of that name; it is used once (compare-and-set), and the new pairing
 * is accepted at the offer's level.
 */
export async function completeOffer(
  deps: { store: Store; clock: Clock; relayName: string | null },
  request: PairRequest,
): Promise<{ pairingId: string; relay: string; grants: RelayLevel }> {
  const offer = await deps.store.transaction((tx) => tx.relays.findOffer(request.offer));
  if (offer === null || !secretMatches(request.secret, offer.secretHash))
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
    const paired = {
      actor: { kind: 'relay' as const, id: null, name: request.relay },
      where: 'relay' as const,
      level: offer.level,
    };
    await tx.audit.append(offer.workspaceId, relayChanged('relay_paired', pairing, paired)); // O4
    return { pairingId: pairing.id, relay: deps.relayName ?? 'this relay', grants: offer.level };
  });
}

/** R1: the workspace accepts `relay` at `level` (the workspace file's `relays.accept`). */
export async function acceptRelay(
  tx: StoreTx,
  workspaceId: string,
  relay: string,
  level: RelayLevel,
): Promise<void> {
  const settings = await tx.relays.settings(workspaceId);
  const accepted = settings.accepted.filter((a) => a.relay.toLowerCase() !== relay.toLowerCase());
  await tx.relays.setSettings(workspaceId, { ...settings, accepted: [...accepted, { relay, level }] });
}

/**
 * R1, side B: accepts an offer: stores the pairing with A's key, then asks A to complete it
 * (signed with B's key for the offer); A's pairing id is kept for B's requests. When A cannot
 * be reached or refuses, the pairing stored here is revoked and the reason thrown.
 */
export async function acceptOffer(
  deps: RelayPairingDeps,
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
    return { pairing: made, keys: await tx.relays.keyPair(workspaceId, () => deps.channel.newKeyPair()) };
  });
  const request: PairRequest = {
    offer: offer.offer,
    secret: offer.secret,
    relay: self.relay,
    url: self.url,
    publicKey: keys.publicKey,
    pairingId: pairing.id,
    grants,
  };
  const answer = await deps.channel.sendPair(
    { relay: offer.relay, url: offer.url },
    request,
    keys.privateKey,
    deps.clock.now(),
  );
  if (!answer.ok) {
    await deps.store.inWorkspace(workspaceId, (tx) => tx.relays.revoke(pairing.id, deps.clock.now()));
    throw new Error(answer.reason);
  }
  await deps.store.inWorkspace(workspaceId, async (tx) => {
    await tx.relays.completePairing(pairing.id, answer.value.pairingId, answer.value.grants);
    await acceptRelay(tx, workspaceId, offer.relay, grants);
    await tx.audit.append(
      workspaceId,
      relayChanged('relay_paired', pairing, { where: 'cli', level: grants }),
    ); // O4
  });
  return { ...pairing, remotePairingId: answer.value.pairingId, remoteGrants: answer.value.grants };
}
