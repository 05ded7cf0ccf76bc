import type { RelayLevel } from '../model/relays/relay-level';
import type {
  RelayKeyPair,
  RelayOfferRecord,
  RelayPairingRecord,
  RelaySettings,
} from '../model/relays/relay-records';

/** R1: pairings, offers, keys, nonces and the workspace's relay settings (`src/storage`). */
export interface RelayRepository {
  /** The workspace's key pair, made and stored by `create` the first time. */
  keyPair(workspaceId: string, create: () => RelayKeyPair): Promise<RelayKeyPair>;
  insertOffer(
    workspaceId: string,
    fields: { secretHash: string; level: RelayLevel; expiresAt: Date },
  ): Promise<RelayOfferRecord>;
  findOffer(id: string): Promise<RelayOfferRecord | null>;
  /** Compare-and-set: true for the one caller that used the offer. */
  useOffer(id: string, at: Date): Promise<boolean>;
  insertPairing(
    workspaceId: string,
    fields: Pick<
      RelayPairingRecord,
      'remoteName' | 'remoteUrl' | 'remotePublicKey' | 'remotePairingId' | 'remoteGrants'
    >,
  ): Promise<RelayPairingRecord>;
  /** The other side's id for this pairing, learnt when it completed. */
  completePairing(id: string, remotePairingId: string, remoteGrants: RelayLevel): Promise<void>;
  findPairing(id: string): Promise<RelayPairingRecord | null>;
  /** The workspace's active (not revoked) pairing with that relay name (case-insensitive). */
  findActiveByName(workspaceId: string, remoteName: string): Promise<RelayPairingRecord | null>;
  listPairings(workspaceId: string): Promise<RelayPairingRecord[]>;
  revoke(id: string, at: Date): Promise<void>;
  /**
   * R1: records a request's nonce; false when the pairing has seen it already (a replay).
   * Nonces older than `forgetBefore` are forgotten (the timestamp window refuses them anyway).
   */
  useNonce(
    workspaceId: string,
    pairingId: string,
    nonce: string,
    at: Date,
    forgetBefore: Date,
  ): Promise<boolean>;
  /** R1 `read`: the newest conversations' titles, with their space, newest first. */
  recentSessions(workspaceId: string, limit: number): Promise<{ title: string; space: string }[]>;
  settings(workspaceId: string): Promise<RelaySettings>;
  setSettings(workspaceId: string, settings: RelaySettings): Promise<void>;
}
