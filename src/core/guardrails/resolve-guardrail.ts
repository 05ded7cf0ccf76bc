import { ValidationError } from '../errors';
import { GUARDRAIL_ACTIONS, type GuardrailAction } from '../model/guardrail';
import { applyAutonomy } from './autonomy';
import { mostRestrictive, restrictiveness } from './decision-order';
import { explainReason, explainSteps } from './explain';
import { approvalBlocker, approvalRemedy } from './fail-closed';
import type { ClassResolution, GuardrailResolution, ResolveGuardrailInput } from './resolution';
import { resolveClass } from './resolve-class';

/**
 * G2, G2b, G2a in that order: resolve each action class by specificity, combine the classes
 * most-restrictive, turn the autonomy dial, then fail closed on an `ask` nobody can answer.
 * Pure: the caller loads the rules and counts approvers and channels.
 */
export function resolveGuardrail(input: ResolveGuardrailInput): GuardrailResolution {
  const classes = actionClasses(input.action);
  const { context } = input;
  const [first, ...rest] = classes.map((action) =>
    resolveClass(action, context, input.rules, action === 'mcp' ? input.subject : undefined),
  );
  if (first === undefined) throw new ValidationError('A guardrail check needs at least one action class.');
  const perClass: [ClassResolution, ...ClassResolution[]] = [first, ...rest];

  // G2: the classes of an action that spans several combine most-restrictive.
  const ruleDecision = mostRestrictive(first.decision, ...rest.map((r) => r.decision));
  const deciding = firstMostRestrictive(perClass);

  // G2b: the autonomy dial of the space.
  const afterAutonomy = applyAutonomy(ruleDecision, context.autonomy);

  // G2a: fail closed; an `ask` that nobody can answer is a no.
  const blocker = afterAutonomy === 'ask' ? approvalBlocker(input.canBeApproved) : null;
  const remedy = blocker === null ? null : approvalRemedy(input.canBeApproved);
  const decision = blocker === null ? afterAutonomy : 'deny';

  const explained = {
    classes,
    context,
    ...(input.subject === undefined ? {} : { subject: input.subject }),
    perClass,
    deciding,
    ruleDecision,
    afterAutonomy,
    decision,
    blocker,
    remedy,
  };
  return {
    decision,
    ruleDecision,
    decidedBy: deciding.decidedBy,
    decidingAction: deciding.action,
    perClass,
    autonomy: context.autonomy,
    autonomyChanged: afterAutonomy !== ruleDecision,
    failedClosed: blocker !== null,
    steps: explainSteps(explained),
    reason: explainReason(explained),
  };
}

/** The distinct classes, in the order given; an unknown class is a programming error. */
function actionClasses(action: GuardrailAction | readonly GuardrailAction[]): GuardrailAction[] {
  const list: readonly string[] = typeof action === 'string' ? [action] : action;
  const classes: GuardrailAction[] = [];
  for (const name of list) {
    if (!isGuardrailAction(name)) {
      throw new ValidationError(
        `Unknown guardrail action "${name}"; use one of ${GUARDRAIL_ACTIONS.join(', ')}.`,
      );
    }
    if (!classes.includes(name)) classes.push(name);
  }
  return classes;
}

const isGuardrailAction = (name: string): name is GuardrailAction =>
  (GUARDRAIL_ACTIONS as readonly string[]).includes(name);

function firstMostRestrictive(perClass: readonly [ClassResolution, ...ClassResolution[]]): ClassResolution {
  let winner = perClass[0];
  for (const resolution of perClass) {
    if (restrictiveness(resolution.decision) > restrictiveness(winner.decision)) winner = resolution;
  }
  return winner;
}
