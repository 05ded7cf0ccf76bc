import type { RoutineRecord } from '../model/routines/routine';
import type { StoreTx } from '../ports/store';
import {
  type ClaimedFiring,
  type FiringNotice,
  type RoutineFiringDeps,
  storeConversation,
} from './fire-routines';
import { routineBudgetRefusal } from './routine-budget';
import { postingBinding } from './routine-channel';

/** W2: a delivery that fires nothing: why (a sentence), and the budget notice to post once (W4). */
export interface RefusedDelivery {
  refused: string;
  notice: FiringNotice | null;
}

/**
 * W5, W1, W2: a verified delivery's firing (a signed webhook, a GitHub event), claimed by
 * (routine, delivery id) in the same transaction that stores its conversation and prompt; null
 * when that delivery was accepted before (P6: it runs once) — the caller answers 2xx and
 * nothing runs again. W4: a routine whose budget is used up records the delivery as
 * `over_budget` and fires nothing; the first such firing in a row says so in its channel.
 */
export async function claimWebhookFiring(
  tx: StoreTx,
  deps: Pick<RoutineFiringDeps, 'platforms'>,
  routine: RoutineRecord,
  delivery: { id: string; prompt: string },
  now: Date,
): Promise<ClaimedFiring | RefusedDelivery | null> {
  // W4: deliveries for one routine are claimed in turn, so "over budget" is said once.
  if (!(await tx.routines.lockOne(routine.id))) return { refused: 'the routine was deleted', notice: null };
  const bindings = await tx.channelBindings.listForWorkspace(routine.workspaceId);
  const binding = postingBinding(bindings, routine.spaceId, deps.platforms);
  if (binding === undefined)
    return {
      refused: `space "${routine.space}" has no channel on a chat platform this Summon runs`,
      notice: null,
    };
  const base = {
    workspaceId: routine.workspaceId,
    routineId: routine.id,
    scheduledFor: now,
    firedAt: now,
    missed: [],
    reason: null,
    deliveryId: delivery.id,
  };
  const overBudget = await routineBudgetRefusal(tx, routine, now);
  if (overBudget !== null) {
    const [last] = await tx.routines.history(routine.id, 1);
    const refused = await tx.routines.claimFiring({ ...base, outcome: 'over_budget', reason: overBudget });
    if (refused === null) return null;
    const notice = { platform: binding.platform, channelId: binding.channelId, text: overBudget };
    return { refused: overBudget, notice: last?.outcome === 'over_budget' ? null : notice };
  }
  const firing = await tx.routines.claimFiring({ ...base, outcome: 'claimed' });
  if (firing === null) return null;
  const stored = await storeConversation(tx, routine, binding.platform, delivery.prompt);
  await tx.routines.updateFiring(firing.id, { outcome: 'claimed', conversationId: stored.conversationId });
  const agent = (await tx.agents.list(routine.workspaceId)).find((a) => a.id === routine.agentId);
  return {
    firing,
    routine,
    channel: { platform: binding.platform, channelId: binding.channelId },
    ...stored,
    avatarUrl: agent?.avatarUrl ?? null,
  };
}
