import { memberActor } from '../audit/audit-entries';
import type { ApprovalDetails, ApprovalRecord } from '../model/approvals/approval-record';
import type { AuditPlace } from '../model/audit/audit-event';
import type { MemberRecord } from '../model/records';
import type { RoutineProposal, RoutineRecord, RoutineSpec } from '../model/routines/routine';
import type { StoreTx } from '../ports/store';
import { formatTokens, formatUsd } from '../usage/budget';
import { routineIssues } from './apply-routines';
import { routineChanged } from './routine-audit';
import { routineEntryOf, routineEntrySchema, routineSpecOf } from './routine-entry';
import { nextTime, nextTimes } from './routine-schedule';
import { cronInWords } from './routine-words';

/** W1: what `schedule_routine` is given; checked by the workspace file's own schema. */
export interface ProposalInput {
  name: string;
  prompt: string;
  agent?: string | undefined;
  schedule?: string | undefined;
  timezone?: string | undefined;
  at?: string | undefined;
  onMissed?: string | undefined;
  budget?: { per: string; tokens?: number | undefined; usd?: number | undefined } | undefined;
}

/** Where the proposal is made: the turn's workspace, space and agent. */
export interface ProposalPlace {
  workspaceId: string;
  space: { id: string; name: string };
  proposedBy: string;
}

/**
 * W1: the proposal, or the sentence naming each field to fix: the same checks as `summon apply`
 * (one trigger, a valid cron, a known time zone, an `at` ahead, an agent of the space), and a
 * name not taken in the space (a proposal never replaces a routine).
 */
export async function checkProposal(
  tx: StoreTx,
  place: ProposalPlace,
  input: ProposalInput,
  now: Date,
): Promise<{ ok: true; proposal: RoutineProposal } | { ok: false; refusal: string }> {
  const parsed = routineEntrySchema.safeParse({ ...input, agent: input.agent ?? place.proposedBy });
  if (!parsed.success)
    return {
      ok: false,
      refusal: refusalOf(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))),
    };
  const proposal: RoutineProposal = {
    spaceId: place.space.id,
    space: place.space.name,
    spec: { ...routineSpecOf(parsed.data), paused: false },
    proposedBy: place.proposedBy,
  };
  const problems = await proposalProblems(tx, place.workspaceId, proposal, now);
  return problems.length === 0 ? { ok: true, proposal } : { ok: false, refusal: refusalOf(problems) };
}

/** W1: what would stop the proposal from being stored now (at proposing, and again at confirming). */
async function proposalProblems(
  tx: StoreTx,
  workspaceId: string,
  proposal: RoutineProposal,
  now: Date,
): Promise<{ path: string; message: string }[]> {
  const entry = routineEntryOf(proposal.spec);
  // W1: the tool proposes schedules and times only; a `github` trigger is the workspace file's.
  const issues = await routineIssues(tx, workspaceId, [{ name: proposal.space, routines: [entry] }], now, {
    github: false,
  });
  const problems = issues.map((i) => ({
    path: i.path.replace(/^spaces\[0\]\.routines\[0\]\./, ''),
    message: i.message,
  }));
  const taken = (await tx.routines.listForWorkspace(workspaceId)).some(
    (r) => r.spaceId === proposal.spaceId && r.name === proposal.spec.name,
  );
  if (taken)
    problems.push({
      path: 'name',
      message: `space "${proposal.space}" already has a routine "${proposal.spec.name}"; choose another name`,
    });
  return problems;
}

const refusalOf = (problems: readonly { path: string; message: string }[]): string =>
  `schedule_routine refused, nothing was posted: ${problems.map((p) => `\`${p.path}\` ${p.message}`).join('; ')}.`;

/** W1: the card: the schedule in words, its time zone, the next three times, agent, prompt, budget. */
export function proposalDetails(proposal: RoutineProposal, now: Date): ApprovalDetails {
  const { spec } = proposal;
  const { trigger } = spec;
  const when =
    trigger.kind === 'schedule'
      ? [`Schedule: ${cronInWords(trigger.cron)} (\`${trigger.cron}\`)`, `Time zone: ${trigger.timezone}`]
      : trigger.kind === 'at'
        ? [`Once at ${trigger.at}`]
        : ['On a signed webhook'];
  const next = nextTimes(trigger, now, 3).map((t) => t.toISOString());
  const budget = spec.budget;
  return {
    summary: `routine ${proposal.space}/${spec.name}, proposed by ${proposal.proposedBy}`,
    lines: [
      ...when,
      `Next: ${next.length === 0 ? 'none' : next.join(', ')}`,
      `Agent: @${spec.agent}`,
      `Prompt: ${spec.prompt}`,
      `Budget: ${budget === null ? 'none of its own' : `${budget.unit === 'usd' ? formatUsd(budget.limit) : formatTokens(budget.limit)} a ${budget.per}`}`,
      `Missed times: ${spec.onMissed === 'runOnce' ? 'run once' : 'skip'}`,
    ],
  };
}

/**
 * W1: a person's Confirm, in the decision's transaction: the sentence saying why it cannot be
 * stored (the card stays pending), or null when it can.
 */
export async function confirmRefusal(
  tx: StoreTx,
  approval: ApprovalRecord,
  now: Date,
): Promise<string | null> {
  const proposal = approval.routineProposal;
  if (proposal === null) return null;
  const problems = await proposalProblems(tx, approval.workspaceId, proposal, now);
  if (problems.length === 0) return null;
  return `This routine cannot be stored as proposed: ${problems.map((p) => `\`${p.path}\` ${p.message}`).join('; ')}. Cancel it and ask the agent for a new proposal.`;
}

/** W1, O4: the confirmed proposal stored (who proposed, who confirmed) and recorded, in `tx`. */
export async function storeConfirmed(
  tx: StoreTx,
  approval: ApprovalRecord,
  member: Pick<MemberRecord, 'id' | 'nickname'>,
  where: AuditPlace,
  now: Date,
): Promise<RoutineRecord | null> {
  const proposal = approval.routineProposal;
  if (proposal === null) return null;
  const spec: RoutineSpec = proposal.spec;
  const agent = await tx.agents.findByName(approval.workspaceId, spec.agent);
  if (agent === null) return null;
  const routine = await tx.routines.save(
    { workspaceId: approval.workspaceId, spaceId: proposal.spaceId, agentId: agent.id },
    spec,
    nextTime(spec.trigger, now),
    { proposedBy: proposal.proposedBy, confirmedBy: member.nickname },
  );
  await tx.audit.append(
    approval.workspaceId,
    routineChanged(routine, 'created', memberActor(member), where, {
      proposedBy: proposal.proposedBy,
      approvalId: approval.id,
    }),
  );
  return routine;
}
