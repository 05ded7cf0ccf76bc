import { AppError, NotFoundError } from '../errors';
import type { ApprovalVerdict } from '../model/approvals/approval';
import { canApprove } from '../model/member';
import type { PlatformActor } from '../ports/chat-engine';
import type { McpCaller, PendingApproval } from '../ports/member-tools';
import type { MemberToolsDeps } from './member-tools-deps';
import { accountOn, noAccountOn, reachableSpaces } from './reachable-spaces';

/** Pending approvals are read with no due date: every one still waiting. */
const FAR_FUTURE = new Date(8.64e15);

/**
 * E6, G4: the pending approvals a member can see: those of conversations in the spaces they may
 * reach (the cards they would see in chat).
 */
export async function listApprovals(deps: MemberToolsDeps, caller: McpCaller): Promise<PendingApproval[]> {
  return deps.store.inWorkspace(caller.workspace.id, async (tx) => {
    const reach = await reachableSpaces(tx, caller.member);
    const agents = await tx.agents.list(caller.workspace.id);
    const pending = (await tx.approvals.listPendingDue(FAR_FUTURE)).filter(
      (a) => a.workspaceId === caller.workspace.id,
    );
    const visible: PendingApproval[] = [];
    for (const approval of pending) {
      const run = await tx.runs.findById(approval.runId);
      const conversation = run === null ? null : await tx.conversations.findById(run.conversationId);
      const space = reach.find((r) => r.space.id === conversation?.spaceId)?.space;
      if (space === undefined) continue;
      visible.push({
        approvalId: approval.id,
        action: approval.action,
        summary: approval.details.summary,
        details: approval.details.lines,
        space: space.name,
        agent: agents.find((a) => a.id === run?.agentId)?.name ?? null,
        requestedAt: approval.requestedAt.toISOString(),
        expiresAt: approval.expiresAt.toISOString(),
      });
    }
    return visible;
  });
}

/**
 * E6, G4: `decide_approval` takes the path of a click on the card (`ChatEngine.act`), as the
 * member's account on the card's platform, so the role is checked there, the decision is
 * audited and the card in chat shows it.
 */
export async function decideApproval(
  deps: MemberToolsDeps,
  caller: McpCaller,
  request: { approvalId: string; verdict: ApprovalVerdict; via?: PlatformActor['via'] },
): Promise<{ approvalId: string; status: string }> {
  const { member, workspace } = caller;
  // G4: said before anything is looked up, in the words a card click's refusal uses.
  if (!canApprove(member.role)) {
    throw new AppError(
      `Only owners, admins and approvers can decide approvals; your role is ${member.role}.`,
      'forbidden',
    );
  }
  const chat = deps.chat();
  if (chat === null) {
    throw new AppError(
      'No chat platform runs in this Summon process, so no approval can be decided here.',
      'unavailable',
    );
  }
  const place = await deps.store.inWorkspace(workspace.id, async (tx) => {
    const approval = await tx.approvals.findById(request.approvalId);
    const run = approval === null ? null : await tx.runs.findById(approval.runId);
    const conversation = run === null ? null : await tx.conversations.findById(run.conversationId);
    if (approval === null || conversation === null)
      throw new NotFoundError(`There is no approval ${request.approvalId} in workspace ${workspace.slug}.`);
    const team = (await tx.platformBindings.listForWorkspace(workspace.id)).find(
      (b) => b.platform === conversation.platform,
    );
    return { platform: conversation.platform, team };
  });
  const senderId = accountOn(member, place.platform);
  if (senderId === null) throw new AppError(noAccountOn(member, place.platform), 'forbidden');
  const actorWorkspace =
    place.platform === 'terminal' || place.team === undefined
      ? { slug: workspace.slug }
      : { platform: place.team.platform, externalId: place.team.externalId };
  const result = await chat.engine.act(
    { kind: 'approval', verdict: request.verdict, approvalId: request.approvalId },
    {
      platform: place.platform,
      workspace: actorWorkspace,
      senderId,
      ...(request.via === undefined ? {} : { via: request.via }),
    },
  );
  if (!result.ok) throw new AppError(result.reason, 'forbidden');
  const decided = await deps.store.inWorkspace(workspace.id, (tx) =>
    tx.approvals.findById(request.approvalId),
  );
  return { approvalId: request.approvalId, status: decided?.status ?? 'unknown' };
}
