import type { GuardrailDecision } from '../model/guardrail';
import type { Autonomy } from '../model/space';

/**
 * G2b: the space's autonomy dial, applied to the rules' decision.
 *
 * Decision: under `proposeOnly` every G1 action is denied, including one the rules allow.
 * G1's actions (commit, push, pull request, tracker write, network, and E4's MCP calls, even
 * to a read-only tool) are exactly the gated actions, and this engine is consulted only for
 * them; "the agent may still reply" names the one thing left, and replying is not a G1 action.
 */
export function applyAutonomy(decision: GuardrailDecision, autonomy: Autonomy): GuardrailDecision {
  switch (autonomy) {
    case 'proposeOnly':
      return 'deny';
    case 'actWithApproval':
      return decision;
    case 'actFreely':
      // G2b: an `ask` becomes allowed; only an explicit `deny` survives.
      return decision === 'ask' ? 'allow' : decision;
  }
}
