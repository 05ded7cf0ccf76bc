import type { RunRecord } from '../../model/records';
import { requeueFromCheckpoint } from '../turn/turn-checkpoints';
import { cardOfUnheldRun } from './lost-card';
import type { RecoveryDeps } from './recovery-deps';

/**
 * T2, A12: a silent run with no checkpoint. Its agent's runner checkpoints a turn before its
 * first model call (a built-in loop): the turn died before it — claimed, its status card up or
 * on its way — and nothing it did has an effect to repeat, so it goes back to the queue and
 * starts again from its prompt, on the card whose ref its run holds, or the card read back from
 * its thread when its ref was never stored (P9). A CLI agent's turn (A9),
 * whose process may have done anything, is not run again: `none`. `taken`: another process
 * requeued or claimed it first (a compare-and-set on its silence: it is never run twice).
 */
export async function restartFromPrompt(
  deps: RecoveryDeps,
  run: RunRecord,
  staleBefore: Date,
): Promise<'resumed' | 'taken' | 'none'> {
  const agent = await deps.store.inWorkspace(run.workspaceId, async (tx) =>
    (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId),
  );
  if (agent === undefined || deps.runners(agent).checkpoints !== true) return 'none';
  const cardRef = await cardOfUnheldRun(deps, run);
  return (await requeueFromCheckpoint(deps, run, { silentBefore: staleBefore, cardRef }))
    ? 'resumed'
    : 'taken';
}
