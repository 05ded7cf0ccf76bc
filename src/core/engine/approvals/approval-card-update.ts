import type { ApprovalRecord } from '../../model/approvals/approval-record';
import type { Platform } from '../../model/platform';
import type { StoreTx } from '../../ports/store';
import type { DecidedOn } from '../../ports/turn-checks';
import { reportApproval } from '../turn-checks-hooks';
import { approvalMessage } from './approval-card';
import type { ApprovalDeps } from './approval-deps';

/** G4: what an approval's card is redrawn from: the approval, where its card is, who decided. */
export interface CardUpdate {
  approval: ApprovalRecord;
  thread: string | null;
  platform: Platform | undefined;
  agentName: string;
  decidedBy: string | null;
  /** P21: where it was decided, when a person's click decided it now (the check says so). */
  decidedOn?: DecidedOn;
}

/** The card's redraw, read in the transaction that changed the approval. */
export async function cardUpdate(tx: StoreTx, approval: ApprovalRecord): Promise<CardUpdate> {
  const run = await tx.runs.findById(approval.runId);
  const conversation = run === null ? null : await tx.conversations.findById(run.conversationId);
  const agent =
    run === null ? undefined : (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId);
  const decider =
    approval.decidedByMemberId === null
      ? null
      : (await tx.members.list(approval.workspaceId)).find((m) => m.id === approval.decidedByMemberId);
  return {
    approval,
    thread: conversation?.threadId ?? null,
    platform: conversation?.platform,
    agentName: agent?.name ?? 'an agent',
    decidedBy: decider?.nickname ?? null,
  };
}

/** Redraws the card, when it was posted. */
export async function editCard(
  deps: Pick<ApprovalDeps, 'platforms' | 'checks'>,
  update: CardUpdate,
): Promise<void> {
  const message = approvalMessage(update.approval, update.agentName, update.decidedBy);
  // P21: the approval's check run shows the decision too, wherever it was made.
  reportApproval(deps, turnOf(update), message, update.decidedOn ?? null);
  const platform = update.platform === undefined ? undefined : deps.platforms.get(update.platform);
  const ref = update.approval.platformCardRef;
  if (platform === undefined || update.thread === null || ref === null) return;
  const { decidedOn, decidedBy } = update;
  // G4, P21: decided on another surface (a check run's button), the chat card says where.
  const elsewhere =
    decidedOn === undefined || decidedOn === 'console' || decidedOn === update.platform || decidedBy === null
      ? message
      : approvalMessage(update.approval, update.agentName, `${decidedBy}${DECIDED_ON[decidedOn]}`);
  await platform.update(update.thread, ref, elsewhere);
}

const DECIDED_ON: Record<Platform, string> = {
  github: ' on GitHub',
  slack: ' in Slack',
  discord: ' in Discord',
  terminal: ' in the terminal',
};

/** P21: the turn that asked the approval, where its check shows. */
export const turnOf = (update: Omit<CardUpdate, 'decidedOn'>) => ({
  runId: update.approval.runId,
  agent: update.agentName,
  platform: update.platform,
  thread: update.thread,
});
