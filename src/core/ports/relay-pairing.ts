import type { PairRequest, PairResponse } from '../model/relays/relay-protocol';
import type { RelayKeyPair } from '../model/relays/relay-records';
import type { RelayCall } from './relay-client';

/**
 * R1: what pairing needs outside the core (`src/adapters/relay-http`): a workspace's new key
 * pair, and the signed `pair` request to the relay that made the offer. The rules (offers
 * stored hashed and used once, which side stores what, when a pairing is revoked again) are
 * the core's, `relays/relay-pairing.ts`.
 */
export interface RelayPairingChannel {
  /** An Ed25519 key pair (PEM) for a workspace that has none yet. */
  newKeyPair(): RelayKeyPair;
  /**
   * R1, side B: sends `request` to the offering relay at `url`, signed with `privateKey` for
   * the offer it names; that relay's answer, or the sentence saying why there is none.
   */
  sendPair(
    target: { relay: string; url: string },
    request: PairRequest,
    privateKey: string,
    now: Date,
  ): Promise<RelayCall<PairResponse>>;
}
