import type { PairRequest } from '../../core/model/relays/relay-protocol';
import type { RelayPairingChannel } from '../../core/ports/relay-pairing';
import { pairResponse, RELAY_PATH_PREFIX } from '../../core/relays/relay-protocol';
import { newKeyPair, signedHeaders } from './relay-signature';

/** How long side B waits for the offering relay to answer a `pair` request. */
const PAIR_TIMEOUT_MS = 30_000;

/**
 * R1: pairing's way out over HTTP (the rules are the core's, `core/relays/relay-pairing.ts`):
 * Ed25519 keys, and the `pair` request POSTed to the offering relay, signed for its offer.
 * Every failure is a sentence naming the other relay, never a throw.
 */
export const httpPairingChannel: RelayPairingChannel = {
  newKeyPair,

  async sendPair(target, request: PairRequest, privateKey, now) {
    const body = JSON.stringify(request);
    const path = `${RELAY_PATH_PREFIX}pair`;
    const headers = signedHeaders(privateKey, { method: 'POST', path, keyId: request.offer, body }, now);
    let response: Response;
    try {
      response = await fetch(`${target.url.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(PAIR_TIMEOUT_MS),
      });
    } catch (error) {
      return {
        ok: false,
        reason: `relay ${target.relay} could not be reached at ${target.url} (${error instanceof Error ? error.message : String(error)}).`,
      };
    }
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const message =
        (answer as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${response.status}`;
      return { ok: false, reason: `relay ${target.relay} refused the pairing: ${message}` };
    }
    const parsed = pairResponse.safeParse(answer);
    if (!parsed.success)
      return {
        ok: false,
        reason: `relay ${target.relay} answered the pairing in a form this relay does not read.`,
      };
    return { ok: true, value: parsed.data };
  },
};
