import type { ApprovalRecord } from '../model/approvals/approval-record';
import {
  type AuditActor,
  type AuditEntry,
  type AuditPlace,
  OPERATOR_ACTOR,
  SYSTEM_ACTOR,
} from '../model/audit/audit-event';
import type { GitPushRecord } from '../model/git-gateway';
import type { GuardrailDecision } from '../model/guardrail';
import { mcpToolName } from '../model/mcp/mcp-call';
import type { McpCallRecord } from '../model/mcp/mcp-call-record';
import type { MemberRecord, RunRecord } from '../model/records';
import type { Budget, Spent } from '../model/usage/budget';
import type { StoreTx } from '../ports/store';

/**
 * O4: the audit log's entries, one builder per kind of change, so that the place where a change
 * happens records it with one line in its own transaction: `tx.audit.append(ws, entry)`.
 */

export const memberActor = (member: Pick<MemberRecord, 'id' | 'nickname'>): AuditActor => ({
  kind: 'member',
  id: member.id,
  name: member.nickname,
});

export const agentActor = (agent: { id: string; name: string }): AuditActor => ({
  kind: 'agent',
  id: agent.id,
  name: agent.name,
});

/** O4: the agent of run `runId`, read in `tx`; Summon itself when the run is gone. */
export async function runActor(tx: StoreTx, runId: string): Promise<AuditActor> {
  const run = await tx.runs.findById(runId);
  if (run === null) return SYSTEM_ACTOR;
  const agent = (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId);
  return agent === undefined ? { kind: 'agent', id: run.agentId, name: 'an agent' } : agentActor(agent);
}

const approvalSubject = (approval: Pick<ApprovalRecord, 'id' | 'action'>) =>
  `approval ${approval.id} (${approval.action})`;

/** G4: an approval card posted for a run's action (by its agent, in its conversation's platform). */
export const approvalAsked = (
  approval: ApprovalRecord,
  agent: { id: string; name: string } | undefined,
  where: AuditPlace | undefined,
): AuditEntry => ({
  kind: 'approval_asked',
  actor: agent === undefined ? SYSTEM_ACTOR : agentActor(agent),
  subject: approvalSubject(approval),
  where: where ?? 'system',
  detail: {
    runId: approval.runId,
    summary: approval.details.summary,
    expiresAt: approval.expiresAt.toISOString(),
  },
});

/**
 * G4: an approval decided: by a member (where they clicked), or by Summon (it expired, or its
 * turn was stopped and it was withdrawn, `why`).
 */
export const approvalDecided = (
  approval: ApprovalRecord,
  actor: AuditActor,
  where: AuditPlace,
  why?: string,
): AuditEntry => ({
  kind: 'approval_decided',
  actor,
  subject: approvalSubject(approval),
  where,
  detail: {
    runId: approval.runId,
    status: approval.status,
    conversationGrant: approval.conversationGrant,
    ...(why === undefined ? {} : { why }),
  },
});

const pushSubject = (push: GitPushRecord) => `push ${push.id} to ${push.repo}`;

/** G3, G5: a push the gateway received, with its rule's decision (and its status so far). */
export const pushDecided = (push: GitPushRecord, agent: AuditActor): AuditEntry => ({
  kind: 'push_decided',
  actor: agent,
  subject: pushSubject(push),
  where: 'git',
  detail: {
    runId: push.runId,
    decision: push.decision,
    status: push.status,
    reason: push.reason,
    approvalId: push.approvalId,
    refs: push.updates.map((u) => `${u.ref} ${u.oldId.slice(0, 12)}..${u.newId.slice(0, 12)}`),
  },
});

/** G5: how a push ended: sent upstream, or refused (denied, expired, not matching its approval). */
export const pushFinished = (push: GitPushRecord): AuditEntry => ({
  kind: 'push_finished',
  actor: SYSTEM_ACTOR,
  subject: pushSubject(push),
  where: 'git',
  detail: { runId: push.runId, status: push.status, reason: push.reason },
});

/** G1, G2, E4: a tool call decided by the rules alone (`allow`, `deny`), or by a grant. */
export const toolGuarded = (
  run: { runId: string; agent: { id: string; name: string } },
  call: { actions: readonly string[]; summary: string; tool?: string },
  decision: GuardrailDecision | 'granted',
  reason: string,
): AuditEntry => ({
  kind: 'tool_guarded',
  actor: agentActor(run.agent),
  subject: call.tool === undefined ? `tool call of run ${run.runId}` : `MCP tool ${call.tool}`,
  where: 'system',
  detail: { runId: run.runId, decision, actions: [...call.actions], summary: call.summary, reason },
});

/** E4: an MCP call and how it went (its arguments stay out: they may hold what a person typed). */
export const mcpCalled = (call: McpCallRecord, agent: AuditActor): AuditEntry => ({
  kind: 'mcp_called',
  actor: agent,
  subject: `MCP tool ${call.tool}`,
  where: 'mcp',
  detail: {
    runId: call.runId,
    decision: call.decision,
    approvedByMemberId: call.approvedByMemberId,
    outcome: call.outcome,
    durationMs: call.durationMs,
  },
});

/** O3: a turn stopped (or never started) because a budget bounding it was used up. */
export const budgetStopped = (
  run: Pick<RunRecord, 'id'>,
  agent: { id: string; name: string },
  breach: { budget: Budget; spent: Spent },
  where: AuditPlace,
): AuditEntry => ({
  kind: 'budget_stopped',
  actor: SYSTEM_ACTOR,
  subject: `run ${run.id} of ${agent.name}`,
  where,
  detail: {
    scope: breach.budget.scope,
    target: breach.budget.target,
    per: breach.budget.per,
    unit: breach.budget.unit,
    limit: breach.budget.limit,
    spentTokens: breach.spent.tokens,
    spentUsd: breach.spent.usd,
  },
});

/** P15: a person stopped a turn (a running one is asked; a queued or parked one ends at once). */
export const turnStopped = (
  run: Pick<RunRecord, 'id' | 'status'>,
  member: Pick<MemberRecord, 'id' | 'nickname'>,
  where: AuditPlace,
): AuditEntry => ({
  kind: 'turn_stopped',
  actor: memberActor(member),
  subject: `run ${run.id}`,
  where,
  detail: { was: run.status },
});

/** P8: a member added, re-roled, invited or linked (`what`), by `actor`. */
export const memberChanged = (
  kind: 'member_added' | 'member_role_changed' | 'member_invited' | 'member_linked',
  member: Pick<MemberRecord, 'id' | 'nickname' | 'role'>,
  change: { actor?: AuditActor; where: AuditPlace; from?: string; account?: string },
): AuditEntry => ({
  kind,
  actor: change.actor ?? OPERATOR_ACTOR,
  subject: `member ${member.nickname}`,
  where: change.where,
  detail: {
    memberId: member.id,
    role: member.role,
    ...(change.from === undefined ? {} : { from: change.from }),
    ...(change.account === undefined ? {} : { account: change.account }),
  },
});

/** O5: a member signed in to the web console (`via`: slack, discord, or a one-time link). */
export const consoleSignedIn = (
  member: Pick<MemberRecord, 'id' | 'nickname' | 'role'>,
  via: string,
): AuditEntry => ({
  kind: 'console_signed_in',
  actor: memberActor(member),
  subject: `member ${member.nickname}`,
  where: 'console',
  detail: { via, role: member.role },
});

/** R1: a pairing with another relay made or revoked. */
export const relayChanged = (
  kind: 'relay_paired' | 'relay_revoked',
  pairing: { id: string; remoteName: string },
  change: { actor?: AuditActor; where: AuditPlace; level?: string },
): AuditEntry => ({
  kind,
  actor: change.actor ?? OPERATOR_ACTOR,
  subject: `relay ${pairing.remoteName}`,
  where: change.where,
  detail: { pairingId: pairing.id, ...(change.level === undefined ? {} : { level: change.level }) },
});

/** A6: a skill installed or updated, refused by its check (or at start), or removed. */
export const skillChanged = (
  kind: 'skill_installed' | 'skill_refused' | 'skill_removed',
  name: string,
  facts: {
    actor?: AuditActor;
    where?: AuditPlace;
    source?: string;
    commit?: string;
    reasons?: readonly string[];
  },
): AuditEntry => ({
  kind,
  actor: facts.actor ?? OPERATOR_ACTOR,
  subject: `skill ${name}`,
  where: facts.where ?? 'cli',
  detail: {
    ...(facts.source === undefined ? {} : { source: facts.source }),
    ...(facts.commit === undefined ? {} : { commit: facts.commit }),
    ...(facts.reasons === undefined ? {} : { reasons: [...facts.reasons] }),
  },
});

/** A3: `summon apply`: what it created and updated, as its report says (`agent alice`, `member bob`). */
export const workspaceApplied = (
  slug: string,
  report: { created: readonly string[]; updated: readonly string[] },
): AuditEntry => ({
  kind: 'workspace_applied',
  actor: OPERATOR_ACTOR,
  subject: `workspace ${slug}`,
  where: 'cli',
  detail: { created: [...report.created], updated: [...report.updated] },
});

/** What `recordGuarded` needs of a guarded call: its run, agent, action classes and summary. */
export interface GuardedCallFacts {
  runId: string;
  agent: { id: string; name: string; workspaceId: string };
  actions: readonly string[];
  summary: string;
  mcp?: { server: string; tool: string };
}

/**
 * G1, G2, E4, O4: a call the rules decided alone (`allow`, `deny`; a `granted` one by an earlier
 * approval) is recorded in the transaction that decided it; an `ask` is recorded by its
 * approval's events. Returns `decided`, for the caller to go on with.
 */
export async function recordGuarded<
  D extends { decision: GuardrailDecision | 'granted'; reason: string } | null,
>(tx: StoreTx, call: GuardedCallFacts, decided: D): Promise<D> {
  if (decided === null || decided.decision === 'ask') return decided;
  const tool = call.mcp === undefined ? {} : { tool: mcpToolName(call.mcp.server, call.mcp.tool) };
  const facts = { actions: call.actions, summary: call.summary, ...tool };
  const run = { runId: call.runId, agent: call.agent };
  await tx.audit.append(call.agent.workspaceId, toolGuarded(run, facts, decided.decision, decided.reason));
  return decided;
}
