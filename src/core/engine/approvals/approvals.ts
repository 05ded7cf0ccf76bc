import { approvalAsked, approvalDecided, memberActor } from '../../audit/audit-entries';
import { AppError, NotFoundError } from '../../errors';
import { approvalExpiry, approvalOutcome, DEFAULT_APPROVAL_TTL_MS, decideApproval } from '../../guardrails';
import type { ApprovalOutcome, ApprovalVerdict } from '../../model/approvals/approval';
import type { ApprovalAction } from '../../model/approvals/approval-action';
import type { ApprovalDetails, ApprovalRecord } from '../../model/approvals/approval-record';
import type { RoutineMaker, RoutineProposal } from '../../model/routines/routine';
import type { PlatformActor } from '../../ports/chat-engine';
import { waitTopics } from '../../ports/wait-signals';
import { confirmRefusal, storeConfirmed } from '../../routines/routine-proposal';
import { postInConversation } from '../cards/post-in-conversation';
import { resolveActor } from '../routing/resolve-sender';
import { requeueFromCheckpoint } from '../turn/turn-checkpoints';
import { reportApproval } from '../turn-checks-hooks';
import { approvalMessage } from './approval-card';
import { cardUpdate, editCard, turnOf } from './approval-card-update';
import type { ApprovalDeps } from './approval-deps';
import { grantForConversation, NOT_GRANTABLE } from './conversation-grant';

/**
 * G4: an `ask` becomes an approval card in the run's conversation. The record is stored
 * first, then the card is posted; a decision edits the card. Pending approvals are rows, so
 * they survive a restart, and an unanswered one expires and counts as denied.
 */
export async function openApproval(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'clock' | 'logger' | 'checks'>,
  request: {
    runId: string;
    action: ApprovalAction;
    details: ApprovalDetails;
    ttlMs?: number;
    /** E4: an MCP call's approval is bound to its subject hash. */
    subjectHash?: string;
    /** W1: a `schedule_routine` card's routine, stored when a person confirms it. */
    routineProposal?: RoutineProposal;
  },
): Promise<ApprovalRecord> {
  const now = deps.clock.now();
  const { approval, thread, platformName, agentName } = await deps.store.transaction(async (tx) => {
    const run = await tx.runs.findById(request.runId);
    if (run === null) throw new NotFoundError(`no run ${request.runId}`);
    const conversation = await tx.conversations.findById(run.conversationId);
    const agent = (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId);
    // W4: a routine's turn asks a person like any other; its card names the routine and its maker.
    const routine = await tx.routines.ofRun(run.id);
    const details =
      routine === null
        ? request.details
        : {
            ...request.details,
            lines: [
              ...request.details.lines,
              `Asked in routine ${routine.space}/${routine.name} (${makerInWords(routine.madeBy)}); it waits for a person.`,
            ],
          };
    const approval = await tx.approvals.insert(run.workspaceId, {
      runId: run.id,
      action: request.action,
      details,
      requestedAt: now,
      expiresAt: approvalExpiry(now, request.ttlMs ?? DEFAULT_APPROVAL_TTL_MS),
      ...(request.subjectHash === undefined ? {} : { subjectHash: request.subjectHash }),
      ...(request.routineProposal === undefined ? {} : { routineProposal: request.routineProposal }),
    });
    // O4: the ask is recorded with the approval it opens.
    await tx.audit.append(run.workspaceId, approvalAsked(approval, agent, conversation?.platform));
    return {
      approval,
      thread: conversation?.threadId ?? null,
      platformName: conversation?.platform,
      agentName: agent?.name ?? 'an agent',
    };
  });
  // P21: a turn on a pull request asks on its check run too (Approve / Deny there).
  reportApproval(
    deps,
    turnOf({ approval, thread, platform: platformName, agentName, decidedBy: null }),
    approvalMessage(approval, agentName, null),
    null,
  );
  const ref =
    platformName === undefined
      ? null
      : await postInConversation(
          deps,
          { workspaceId: approval.workspaceId, platform: platformName, threadId: thread },
          { kind: 'approval', id: approval.id },
          approvalMessage(approval, agentName, null),
        );
  if (ref === null) return approval;
  deps.logger.info(
    { approvalId: approval.id, runId: request.runId, action: request.action },
    'approval requested',
  );
  await redrawIfDecidedMeanwhile(deps, approval);
  return { ...approval, platformCardRef: ref };
}

/** W4: who made the routine an approval is asked in. */
const makerInWords = (madeBy: RoutineMaker | null): string =>
  madeBy === null
    ? 'declared in the workspace file'
    : `proposed by @${madeBy.proposedBy}, confirmed by ${madeBy.confirmedBy}`;

/**
 * G4: a click that lands between the card's post and its stored ref decides the approval but
 * finds no card to edit; once the ref is stored, the card is drawn as decided. (A decision
 * that comes after the ref waits on its row lock and edits the card itself.)
 */
async function redrawIfDecidedMeanwhile(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'checks'>,
  approval: { id: string; workspaceId: string },
): Promise<void> {
  const update = await deps.store.inWorkspace(approval.workspaceId, async (tx) => {
    const current = await tx.approvals.findById(approval.id);
    return current === null || current.status === 'pending' ? null : cardUpdate(tx, current);
  });
  if (update !== null) await editCard(deps, update);
}

/**
 * A click on Approve or Deny (G4), or on Approve for this conversation (E4, the same role as
 * Approve): checked against the member's role; every click is audited.
 */
export async function decide(
  deps: Pick<ApprovalDeps, 'store' | 'platforms' | 'waits' | 'queue' | 'clock' | 'logger' | 'checks'>,
  approvalId: string,
  verdict: ApprovalVerdict,
  actor: PlatformActor,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const now = deps.clock.now();
  const result = await deps.store.transaction(async (tx) => {
    const approval = await tx.approvals.findById(approvalId);
    if (approval === null)
      return { ok: false as const, reason: `There is no approval ${approvalId}.`, changed: null };
    const member = await resolveActor(tx, actor, deps.platforms);
    if (member === null || member.workspaceId !== approval.workspaceId) {
      return {
        ok: false as const,
        reason: 'Only members of this workspace can decide its approvals.',
        changed: null,
      };
    }
    const members = await tx.members.list(approval.workspaceId);
    const decision = decideApproval(
      approval,
      { kind: 'member', memberId: member.id, role: member.role },
      verdict,
      now,
      {
        memberName: (id) => members.find((m) => m.id === id)?.nickname,
      },
    );
    deps.logger.info({ audit: decision.audit }, 'approval click');
    // E4: only an MCP call's approval (bound to its hash) can be given for the conversation.
    if (decision.ok && verdict === 'approve-conversation' && approval.subjectHash === null)
      return { ok: false as const, reason: NOT_GRANTABLE, changed: null };
    if (!decision.ok && !decision.changed)
      return { ok: false as const, reason: decision.reason, changed: null };
    const status = decision.approval.status;
    if (status === 'pending')
      throw new AppError(`approval ${approvalId} was left pending by a decision`, 'internal');
    // W1: a routine proposal is confirmed only while it can still be stored; else the card stays.
    const refusal = status === 'approved' ? await confirmRefusal(tx, approval, now) : null;
    if (refusal !== null) return { ok: false as const, reason: refusal, changed: null };
    let stored = await tx.approvals.decide(approval.id, {
      status,
      decidedByMemberId: decision.approval.decidedByMemberId,
      decidedAt: decision.approval.decidedAt ?? now,
    });
    if (stored !== null && decision.ok && verdict === 'approve-conversation')
      stored = await grantForConversation(tx, stored, member.id, now);
    if (stored === null) {
      // Someone else decided between our read and our write.
      return { ok: false as const, reason: 'This approval was decided a moment ago.', changed: null };
    }
    const where = actor.via ?? actor.platform;
    await tx.audit.append(stored.workspaceId, approvalDecided(stored, memberActor(member), where)); // O4
    if (stored.status === 'approved') await storeConfirmed(tx, stored, member, where, now); // W1
    const changed = await cardUpdate(tx, stored);
    // O5: a decision made in the web console says so on the chat card.
    if (actor.via === 'console' && changed.decidedBy !== null)
      changed.decidedBy = `${changed.decidedBy} in the console`;
    // P21: the check run says where (the console's is in `decidedBy` already).
    else if (changed.decidedBy !== null) changed.decidedOn = actor.platform;
    return decision.ok
      ? { ok: true as const, changed }
      : { ok: false as const, reason: decision.reason, changed };
  });
  if (result.changed !== null) {
    // T1: the turn (or push) waiting on this approval, in whichever process, looks again.
    await deps.waits.notify(waitTopics.approval(approvalId));
    await editCard(deps, result.changed);
    // T2: a turn parked on it (its worker died while it waited) goes back to the queue.
    const { approval } = result.changed;
    await requeueFromCheckpoint(deps, { id: approval.runId, workspaceId: approval.workspaceId }, approval.id);
  }
  return result.ok ? { ok: true } : { ok: false, reason: result.reason };
}

/** What a waiting action does now: allow, deny (denied or expired), or keep waiting (G2a: never a silent yes). */
export async function approvalState(
  deps: Pick<ApprovalDeps, 'store' | 'clock'>,
  approvalId: string,
): Promise<ApprovalOutcome> {
  const approval = await deps.store.transaction((tx) => tx.approvals.findById(approvalId));
  if (approval === null) throw new AppError(`no approval ${approvalId}`, 'not_found');
  return approvalOutcome(approval, deps.clock.now());
}
