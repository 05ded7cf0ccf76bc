import { MAX_WAKE_DEPTH } from '../wake/wake-limits';
import { qualifiedName } from './relay-address';

export type RelayChainCheck = { ok: true; chain: string[]; depth: number } | { ok: false; reason: string };

/**
 * R3, M20: a hand-off that crosses relays is bounded like one inside a relay: the chain
 * travels with the request as `agent@relay` names; the target's turn is one deeper (depth ≤ 3,
 * a person's message being depth 1) and an agent already in the chain is never handed work
 * by it again (no A → B → A across relays). Checked by the sender before it sends and by the
 * receiver before anything runs; the refusal is the sentence the calling agent is told.
 */
export function checkRelayChain(input: {
  tool: string;
  /** The chain up to and including the sender, as `agent@relay`. */
  chain: readonly string[];
  /** The sender's depth. */
  depth: number;
  target: { agent: string; relay: string };
}): RelayChainCheck {
  const { tool, target } = input;
  const chain = input.chain.map((c) => c.toLowerCase());
  const targetName = qualifiedName(target.agent, target.relay);
  const path = chain.join(' → ');
  if (chain.includes(targetName)) {
    return {
      ok: false,
      reason:
        `${tool} refused: ${target.agent} on ${target.relay} is already in this chain (${path}), and an agent is ` +
        `never handed work twice by one chain, across relays too. Finish your part and reply.`,
    };
  }
  const depth = input.depth + 1;
  if (depth > MAX_WAKE_DEPTH) {
    return {
      ok: false,
      reason:
        `${tool} refused: this chain is already ${input.depth} deep (${path}), and agents may hand work ` +
        `to one another at most ${MAX_WAKE_DEPTH} deep, across relays too. Do the work yourself, or ask a person.`,
    };
  }
  return { ok: true, chain: [...chain, targetName], depth };
}
