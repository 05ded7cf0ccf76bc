import { z } from 'zod';
import type { CompletionContract } from '../ports/turn-tools';
import { defineTool, type ToolScope } from './tool-definition';

const PLAN_KEY = 'submit_plan';

/**
 * A9: plan mode's completion contract. The run must hand its plan in with `submit_plan`;
 * the plan is kept for the turn (the reply presents it) and the contract is met.
 */
export const submitPlanTool = defineTool({
  name: 'submit_plan',
  description:
    'Submit your finished plan. Plan mode requires this before you end your turn; call it once with the whole plan in Markdown.',
  input: z.object({
    title: z.string().min(1).describe('A short title for the plan.'),
    plan: z.string().min(1).describe('The plan, in Markdown: steps, files to change, risks.'),
  }),
  access: 'read',
  modes: ['plan'],
  classify: () => [],
  run: async (input, scope) => {
    scope.state.set(PLAN_KEY, input);
    return {
      ok: true,
      output: 'Plan submitted. Now end your turn by replying with the plan, so the people here can read it.',
    };
  },
});

export const PLAN_NUDGE =
  'You are in plan mode and have not submitted a plan. Call the submit_plan tool with your whole plan now, then end your turn.';

/** The contract of a plan-mode turn (A9): nudged once, then the run fails with a sentence. */
export function planContract(scope: Pick<ToolScope, 'state'>, agentName: string): CompletionContract {
  return {
    unmet: () => (scope.state.has(PLAN_KEY) ? undefined : PLAN_NUDGE),
    failure: `${agentName} ended a plan-mode turn without submitting a plan (submit_plan), even after a reminder.`,
  };
}
