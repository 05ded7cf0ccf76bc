import { NotFoundError } from '../errors';
import type { RunRecord } from '../model/records';
import type { RunCheckpointRecord } from '../ports/run-checkpoints';
import type { StoreTx } from '../ports/store';
import type { EngineDeps } from './engine-deps';
import { type TurnContext, turnContextFrom } from './turn-context';

/** What a claimed turn reads before it starts: its context, and its checkpoint if it has one (T2). */
export interface LoadedTurn {
  context: TurnContext;
  stored: RunCheckpointRecord | null;
}

/**
 * Reads a claimed turn, in the transaction that claimed it (one transaction fewer per turn). A
 * thing the turn needs that is gone is returned, not thrown, so the claim still commits and the
 * turn fails as it would have on its own.
 */
export async function loadClaimedTurn(
  tx: StoreTx,
  deps: Pick<EngineDeps, 'timings'>,
  claimed: RunRecord,
): Promise<LoadedTurn | NotFoundError> {
  try {
    // One round trip for all of it (T3): the context, and the checkpoint a turn that stopped
    // at a tool boundary (crash, restart) goes on from (T2).
    const reads = await tx.turnReads.read(claimed, deps.timings.historyMessages);
    return { context: turnContextFrom(claimed, reads), stored: reads.checkpoint };
  } catch (error) {
    if (error instanceof NotFoundError) return error;
    throw error;
  }
}
