import type { RoutineRecord } from '../model/routines/routine';
import type { StoreTx } from '../ports/store';
import { type ClaimedFiring, type RoutineFiringDeps, storeConversation } from './fire-routines';

/**
 * W5, W2: a verified webhook delivery's firing, claimed by (routine, delivery id) in the same
 * transaction that stores its conversation and prompt; null when that delivery was accepted
 * before (P6: it runs once) — the caller answers 2xx and nothing runs again.
 */
export async function claimWebhookFiring(
  tx: StoreTx,
  deps: Pick<RoutineFiringDeps, 'platforms'>,
  routine: RoutineRecord,
  delivery: { id: string; prompt: string },
  now: Date,
): Promise<ClaimedFiring | { refused: string } | null> {
  const binding = (await tx.channelBindings.listForWorkspace(routine.workspaceId)).find(
    (b) => b.spaceId === routine.spaceId && deps.platforms.has(b.platform),
  );
  if (binding === undefined)
    return { refused: `space "${routine.space}" has no channel on a chat platform this Summon runs` };
  const firing = await tx.routines.claimFiring({
    workspaceId: routine.workspaceId,
    routineId: routine.id,
    scheduledFor: now,
    firedAt: now,
    missed: [],
    outcome: 'claimed',
    reason: null,
    deliveryId: delivery.id,
  });
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
