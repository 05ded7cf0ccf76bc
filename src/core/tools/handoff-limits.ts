import { extendChain } from '../wake/wake-chain';
import { MAX_WAKE_DEPTH } from '../wake/wake-limits';

/** The agent-to-agent tools that start another agent's turn (M23). */
export type HandoffTool = 'send_to_agent' | 'ask_agent' | 'delegate_task';

export interface HandoffInput {
  tool: HandoffTool;
  /** M20: the calling run's chain (oldest first, ending with the caller) and depth. */
  chain: readonly string[];
  depth: number;
  callerId: string;
  targetId: string;
  nameOf: (agentId: string) => string;
}

export type HandoffCheck = { ok: true; chain: string[]; depth: number } | { ok: false; reason: string };

/**
 * M20, M23: a handoff through a tool is bounded like the wake chain: the target's turn is one
 * hop deeper (depth ≤ 3, a person's message being depth 1), and an agent already in the
 * chain cannot be handed work by it again (no A → B → A, which would also leave A waiting on
 * itself). The refusal is the sentence the calling agent is told, verbatim.
 */
export function checkHandoff(input: HandoffInput): HandoffCheck {
  const { tool, callerId, targetId, nameOf } = input;
  const target = nameOf(targetId);
  if (targetId === callerId) {
    return { ok: false, reason: `${tool} refused: you cannot hand work to yourself (${target}).` };
  }
  const chain = input.chain.at(-1) === callerId ? [...input.chain] : [...input.chain, callerId];
  const path = chain.map(nameOf).join(' → ');
  if (chain.includes(targetId)) {
    return {
      ok: false,
      reason:
        `${tool} refused: ${target} is already in this chain (${path}), and an agent is never ` +
        `handed work twice by one chain. Finish your part and reply; ${target} will see it.`,
    };
  }
  const depth = input.depth + 1;
  if (depth > MAX_WAKE_DEPTH) {
    return {
      ok: false,
      reason:
        `${tool} refused: this chain is already ${input.depth} deep (${path}), and agents may ` +
        `hand work to one another at most ${MAX_WAKE_DEPTH} deep. Do the work yourself, or ask a person to start ${target}.`,
    };
  }
  return { ok: true, chain: extendChain(chain, targetId), depth };
}
