import type { RelayLevel } from './relay-level';

/** R1: a paired relay, as this workspace knows it (its key, never ours, is what verifies it). */
export interface RelayPairingRecord {
  id: string;
  workspaceId: string;
  /** The other deployment's `SUMMON_RELAY_NAME`. */
  remoteName: string;
  /** Its `SUMMON_PUBLIC_URL`, when it has one: where requests go, and N3's links. */
  remoteUrl: string | null;
  /** Its Ed25519 public key (PEM, SPKI). */
  remotePublicKey: string;
  /** The id of this pairing on the other side: what our requests to it are signed for. */
  remotePairingId: string | null;
  /** The level the other side grants this workspace's agents (as it said at pairing). */
  remoteGrants: RelayLevel | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** R1: a one-time pairing offer; its secret is stored hashed. */
export interface RelayOfferRecord {
  id: string;
  workspaceId: string;
  secretHash: string;
  level: RelayLevel;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A workspace's own key pair (PEM): the private key never leaves the database and this process. */
export interface RelayKeyPair {
  publicKey: string;
  privateKey: string;
}

/** R1, N15: the workspace file's `relays` section. */
export interface RelaySettings {
  /** N15: false refuses every prompt from paired relays' agents; this relay's own are not affected. */
  acceptRemoteAgentPrompts: boolean;
  /** Which paired relays this workspace accepts, and at which level. */
  accepted: { relay: string; level: RelayLevel }[];
}

export const DEFAULT_RELAY_SETTINGS: RelaySettings = { acceptRemoteAgentPrompts: true, accepted: [] };

/**
 * R2, N3, N12, M20: what a note from a paired relay carries besides the local note fields:
 * who sent it there, on which model, the address of its session there, and the wake chain.
 */
export interface RemoteNoteOrigin {
  pairingId: string;
  agentName: string;
  modelId: string | null;
  /** N3: a link to the sending session on its relay; null when that relay has no public URL. */
  sessionUrl: string | null;
  /** M20: the chain so far, as `agent@relay`, oldest first, ending with the sender. */
  chain: string[];
}
