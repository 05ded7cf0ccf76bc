import { recordGuarded } from '../../audit/audit-entries';
import { mcpApprovalDetails } from '../../guardrails/mcp-call-card';
import { mcpSubjectHash, ruleSubjectOf } from '../../guardrails/mcp-call-subject';
import type { GuardrailAction } from '../../model/guardrail';
import type { McpCallSubject } from '../../model/mcp/mcp-call';
import type { AgentRecord, SpaceRecord } from '../../model/records';
import type { McpGuardVerdict } from '../../ports/tool-authorization';
import type { ToolAuthorization } from '../../ports/turn-tools';
import { openApproval } from '../approvals/approvals';
import { conversationGrantFor } from '../approvals/conversation-grant';
import { resolveRunGuardrail } from '../approvals/run-guardrail';
import { awaitApproval } from '../waits/await-approval';
import { markRunAwaiting } from '../waits/mark-run-awaiting';
import type { WaitsDeps } from '../waits/waits-deps';

/** What deciding a call and waiting on its approval use of the engine: what a run's waits use. */
type GuardDeps = WaitsDeps;

export interface GuardedCall {
  runId: string;
  agent: AgentRecord;
  space: SpaceRecord;
  /** G1: the action classes of the call (never empty here). */
  actions: readonly GuardrailAction[];
  /** P9/G4: one line saying what the call does, for the card and the log. */
  summary: string;
  /**
   * T2: a call of the built-in loop, whose turn is checkpointed: the approval it waits on is
   * recorded on the run's checkpoint until the wait ends, so a restarted turn waits on it again.
   */
  checkpointed?: boolean;
  /** T2: a resumed call waits on this approval (opened before the restart) instead of a new one. */
  approvalId?: string;
  /** E4: an MCP call (action `mcp`): its server, tool and arguments decide and bind the approval. */
  mcp?: McpCallSubject;
}

/**
 * G1, G2, G2a, G2b, G4 for one tool call: the workspace's rules for this agent and space,
 * resolved; `deny` comes back with the sentence the agent is told; `ask` posts an approval
 * card in the run's conversation and waits for the decision (an expiry is a no; a stopped
 * turn stops waiting). T1: while it waits the turn holds no slot and nothing polls.
 */
export async function guardCall(
  deps: GuardDeps,
  call: GuardedCall,
  signal: AbortSignal,
): Promise<ToolAuthorization> {
  const { agent, space, mcp } = call;
  if (call.approvalId !== undefined) return waitForApproval(deps, call, call.approvalId, signal);
  // E4: an MCP call is decided with its tool (rules narrowed to it, the read-only default).
  // O4: a decision of the rules alone is recorded as it is made.
  const resolution = await deps.store.inWorkspace(agent.workspaceId, async (tx) =>
    recordGuarded(
      tx,
      call,
      await resolveRunGuardrail(
        tx,
        agent,
        space,
        call.actions,
        mcp === undefined ? undefined : ruleSubjectOf(mcp),
      ),
    ),
  );
  const log = deps.logger.child({ component: 'tools', runId: call.runId });
  log.info({ actions: call.actions, decision: resolution.decision }, 'guardrail decision');
  const verdict = (decision: McpGuardVerdict['decision'], by: string | null = null) =>
    mcp === undefined ? {} : { verdict: { decision, approvedByMemberId: by } };
  if (resolution.decision === 'allow') return { allowed: true, ...verdict('allow') };
  if (resolution.decision === 'deny')
    return { allowed: false, reason: `Refused: ${resolution.reason}`, ...verdict('deny') };

  const subjectHash = mcp === undefined ? undefined : mcpSubjectHash(mcp);
  if (subjectHash !== undefined) {
    // E4: the same call was approved for this conversation: no card. (An explicit deny, or
    // a space turned to proposeOnly, was decided above and still holds.)
    const grant = await deps.store.inWorkspace(agent.workspaceId, async (tx) => {
      const found = await conversationGrantFor(tx, call.runId, subjectHash);
      await recordGuarded(
        tx,
        call,
        found && { decision: 'granted', reason: 'approved for this conversation' },
      ); // O4
      return found;
    });
    if (grant !== null) {
      log.info({ actions: call.actions }, 'allowed by a grant for this conversation');
      return { allowed: true, ...verdict('granted', grant.grantedByMemberId) };
    }
  }
  const approval = await openApproval(deps, {
    runId: call.runId,
    action: resolution.decidingAction,
    details:
      mcp === undefined
        ? {
            summary: `${agent.name} wants to run: ${call.summary}`,
            lines: [`actions: ${call.actions.join(', ')}`, resolution.reason],
          }
        : mcpApprovalDetails(agent.name, mcp, resolution.reason),
    ...(subjectHash === undefined ? {} : { subjectHash }),
  });
  if (call.checkpointed === true) {
    await deps.store.inWorkspace(agent.workspaceId, (tx) =>
      tx.checkpoints.setApproval(call.runId, approval.id),
    );
  }
  return waitForApproval(deps, call, approval.id, signal);
}

async function waitForApproval(
  deps: GuardDeps,
  call: GuardedCall,
  approvalId: string,
  signal: AbortSignal,
): Promise<ToolAuthorization> {
  const run = { runId: call.runId, workspaceId: call.agent.workspaceId };
  if (call.checkpointed === true) {
    // T2: recorded on the checkpoint (again, for a resumed call: its boundary cleared it), so
    // that a restart meanwhile parks the turn on this approval.
    await deps.store.inWorkspace(run.workspaceId, (tx) => tx.checkpoints.setApproval(run.runId, approvalId));
  }
  // A12, A13: a run waiting on an approval is blocked, not silent.
  await markRunAwaiting(deps, run, true);
  try {
    const outcome = await awaitApproval(deps, approvalId, signal);
    // T2: decided (or expired): from here on the call may run, so a restart must not run it
    // again. A stopped turn keeps the approval on its checkpoint, to wait on it once resumed.
    if (outcome !== 'aborted' && call.checkpointed === true) {
      await deps.store.inWorkspace(run.workspaceId, (tx) => tx.checkpoints.setApproval(run.runId, null));
    }
    // E4, O4: an MCP call says who decided it, for its record; none while its approval is
    // still pending (T2: a worker handing the turn back leaves the call to be decided elsewhere).
    const verdict = call.mcp === undefined ? null : await askedVerdict(deps, run.workspaceId, approvalId);
    const asked = verdict === null ? {} : { verdict };
    if (outcome === 'allow') return { allowed: true, ...asked };
    if (outcome === 'aborted')
      return { allowed: false, reason: 'The turn was stopped while waiting for approval.', ...asked };
    return {
      allowed: false,
      reason: `Refused: a person denied the approval for ${call.summary} (or it expired unanswered). Do not retry it; tell the people what you would have done.`,
      ...asked,
    };
  } finally {
    await markRunAwaiting(deps, run, false);
  }
}

/**
 * E4, O4: an asked call's verdict: who approved it (no one when it was denied, expired or
 * withdrawn by a Stop); null while the approval is still pending (the call is not decided).
 */
async function askedVerdict(
  deps: GuardDeps,
  workspaceId: string,
  approvalId: string,
): Promise<McpGuardVerdict | null> {
  const approval = await deps.store.inWorkspace(workspaceId, (tx) => tx.approvals.findById(approvalId));
  if (approval === null || approval.status === 'pending') return null;
  const approvedBy = approval.status === 'approved' ? approval.decidedByMemberId : null;
  return { decision: 'ask', approvedByMemberId: approvedBy };
}
