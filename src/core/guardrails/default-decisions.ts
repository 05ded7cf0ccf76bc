import type { GuardrailAction, GuardrailDecision } from '../model/guardrail';

/** G2: the built-in defaults, used when no workspace, agent or space rule matches. */
export const DEFAULT_DECISIONS: Readonly<Record<GuardrailAction, GuardrailDecision>> = {
  commit: 'allow',
  push_to_remote: 'ask',
  open_pull_request: 'ask',
  tracker_write: 'allow',
  network: 'allow',
  // E4: a tool annotated read-only is allowed without a rule (decided where the call is known).
  mcp: 'ask',
};

export const defaultDecision = (action: GuardrailAction): GuardrailDecision => DEFAULT_DECISIONS[action];
