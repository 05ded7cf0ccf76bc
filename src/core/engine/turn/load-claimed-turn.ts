import { NotFoundError } from '../../errors';
import type { RunRecord } from '../../model/records';
import type { RunCheckpointRecord } from '../../ports/run-checkpoints';
import type { StoreTx } from '../../ports/store';
import type { TurnReads } from '../../ports/turn-reads';
import type { RunLane } from '../run-job';
import { type TurnContext, turnContextFrom } from './turn-context';
import type { TurnDeps } from './turn-deps';

/** What a claimed turn reads before it starts: its context, and its checkpoint if it has one (T2). */
export interface LoadedTurn {
  context: TurnContext;
  stored: RunCheckpointRecord | null;
}

/** A claimed run and what its turn read; the read a NotFoundError when something it needs is gone. */
export interface ClaimedTurn {
  claimed: RunRecord;
  loaded: LoadedTurn | NotFoundError;
}

/**
 * T3: claims the lane's next queued run (one turn at a time per lane) and reads its turn, in
 * the caller's transaction. The run `expected` (a job's own) has its reads asked with the claim,
 * in the same round trip; when the claim takes another (an older run of the lane) or none, those
 * reads are dropped and the claimed run is read after. Null when there was nothing to claim.
 */
export async function claimAndLoad(
  tx: StoreTx,
  deps: Pick<TurnDeps, 'timings' | 'clock'>,
  lane: Pick<RunLane, 'workspaceId' | 'agentId' | 'conversationId'>,
  expected: string | null,
): Promise<ClaimedTurn | null> {
  // Both asked in this tick: the store sends them as one message, the claim first.
  const claiming = tx.runs.claimNext(lane.agentId, lane.conversationId, deps.clock.now());
  const early =
    expected === null
      ? null
      : settled(
          tx.turnReads.read(
            { id: expected, workspaceId: lane.workspaceId, conversationId: lane.conversationId },
            deps.timings.historyMessages,
          ),
        );
  const claimed = await claiming;
  if (claimed === null) return null;
  if (early !== null && claimed.id === expected) return { claimed, loaded: loadedFrom(claimed, await early) };
  return { claimed, loaded: await loadClaimedTurn(tx, deps, claimed) };
}

/**
 * Reads a claimed turn, in the transaction that claimed it (one transaction fewer per turn). A
 * thing the turn needs that is gone is returned, not thrown, so the claim still commits and the
 * turn fails as it would have on its own.
 */
export async function loadClaimedTurn(
  tx: StoreTx,
  deps: Pick<TurnDeps, 'timings'>,
  claimed: RunRecord,
): Promise<LoadedTurn | NotFoundError> {
  // One round trip for all of it (T3): the context, and the checkpoint a turn that stopped
  // at a tool boundary (crash, restart) goes on from (T2).
  return loadedFrom(claimed, await settled(tx.turnReads.read(claimed, deps.timings.historyMessages)));
}

type Settled = { reads: TurnReads } | { error: unknown };

const settled = (reading: Promise<TurnReads>): Promise<Settled> =>
  reading.then(
    (reads) => ({ reads }),
    (error: unknown) => ({ error }),
  );

function loadedFrom(claimed: RunRecord, read: Settled): LoadedTurn | NotFoundError {
  if ('error' in read) {
    if (read.error instanceof NotFoundError) return read.error;
    throw read.error;
  }
  return { context: turnContextFrom(claimed, read.reads), stored: read.reads.checkpoint };
}
