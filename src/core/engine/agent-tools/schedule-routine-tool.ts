import { z } from 'zod';
import { checkProposal, proposalDetails } from '../../routines/routine-proposal';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import { openApproval } from '../approvals/approvals';
import type { AgentToolContext } from './agent-tool-context';

/** W1: a proposal's card waits this long for Confirm or Cancel; unanswered, it stores nothing. */
export const PROPOSAL_TTL_MS = 24 * 60 * 60_000;

/**
 * The tool's input (built once: T3). Kept loose on purpose: the workspace file's own schema
 * checks it inside the call, so a refusal names the field the way `summon apply` does (W1).
 */
const scheduleRoutineInput = z.object({
  name: z.string().describe('A slug unique in this space: lowercase letters, digits, "-" and "_".'),
  prompt: z.string().describe('What the agent is asked each time the routine fires.'),
  agent: z
    .string()
    .optional()
    .describe('The agent that runs it (default: you); it must take part in this space.'),
  schedule: z
    .string()
    .optional()
    .describe(
      'A 5-field cron "minute hour day-of-month month day-of-week", e.g. "0 9 * * 1-5". Give schedule or at, not both.',
    ),
  timezone: z.string().optional().describe('The IANA time zone the schedule is read in (default UTC).'),
  at: z.string().optional().describe('One time instead of a schedule: ISO 8601 with its offset.'),
  onMissed: z
    .string()
    .optional()
    .describe('After downtime: "runOnce" (default) fires once for the missed times, "skip" fires none.'),
  budget: z
    .object({ per: z.string(), tokens: z.number().optional(), usd: z.number().optional() })
    .optional()
    .describe('What its turns may spend per "day" or "month": exactly one of tokens or usd.'),
});

/**
 * W1: an agent proposes a routine of this space. A valid proposal is a card in this thread
 * (Confirm / Cancel, for owners, admins and approvers, G4); an invalid one is refused with the
 * sentence naming the field, and nothing is posted. T1: the call returns once the card is
 * posted, so the turn holds no slot while a person decides; confirming stores the routine.
 */
export const scheduleRoutineTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'schedule_routine',
    description:
      'Propose a routine of this space: an agent that runs a prompt on a schedule (cron with a time zone) or once at a time. A person must confirm the card before anything is scheduled.',
    input: scheduleRoutineInput,
    access: 'write',
    modes: ALL_MODES,
    // G4: not a guarded action: the card itself is the person's decision.
    classify: () => [],
    run: async (input) => {
      const { deps, turn } = ctx;
      const workspaceId = turn.agent.workspaceId;
      const now = deps.clock.now();
      const place = { workspaceId, space: turn.space, proposedBy: turn.agent.name };
      const checked = await deps.store.inWorkspace(workspaceId, (tx) => checkProposal(tx, place, input, now));
      if (!checked.ok) {
        deps.logger.info({ runId: turn.runId, refusal: checked.refusal }, 'routine proposal refused');
        return { ok: false, output: checked.refusal };
      }
      const { proposal } = checked;
      await openApproval(deps, {
        runId: turn.runId,
        action: 'schedule_routine',
        details: proposalDetails(proposal, now),
        ttlMs: PROPOSAL_TTL_MS,
        routineProposal: proposal,
      });
      return {
        ok: true,
        output: `Proposed routine ${proposal.space}/${proposal.spec.name}: its card in this thread waits for an owner, admin or approver to Confirm or Cancel it. Nothing is scheduled until then, and this turn is not told the decision; the card shows it.`,
      };
    },
  });
