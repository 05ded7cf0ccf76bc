import type { GuardrailDecision } from '../model/guardrail';

/** G2: `deny` > `ask` > `allow`. */
const RESTRICTIVENESS: Readonly<Record<GuardrailDecision, number>> = { allow: 0, ask: 1, deny: 2 };

export const restrictiveness = (decision: GuardrailDecision): number => RESTRICTIVENESS[decision];

/**
 * G2: the most restrictive of the given decisions. It takes at least one decision on purpose:
 * "nothing to combine" must never quietly read as `allow`.
 */
export function mostRestrictive(
  first: GuardrailDecision,
  ...rest: readonly GuardrailDecision[]
): GuardrailDecision {
  let winner = first;
  for (const decision of rest) {
    if (RESTRICTIVENESS[decision] > RESTRICTIVENESS[winner]) winner = decision;
  }
  return winner;
}
