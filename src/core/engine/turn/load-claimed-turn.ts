import { NotFoundError } from '../../errors';
import type { RunRecord } from '../../model/records';
import type { RunCheckpointRecord } from '../../ports/run-checkpoints';
import type { StoreTx } from '../../ports/store';
import type { TurnReads } from '../../ports/turn-reads';
import type { RunLane } from '../run-job';
import { StopListener } from '../stop/stop-listener';
import { type TurnContext, turnContextFrom } from './turn-context';
import type { TurnDeps } from './turn-deps';
import { laneKey } from './turn-writes';

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

/** A claimed turn as its lane runs it, with its Stop listened for since before its claim (P15). */
export type LaneTurn = ClaimedTurn & { stop: StopListener | null };

/**
 * T3, P15: `claimTurn`, with the expected run's Stop listened for before its claim: one asked
 * after the claim is heard, so the turn need not read its run back (a transaction fewer). The
 * listener is kept only when the claim took that run.
 */
export async function claimWithStop(
  deps: Pick<TurnDeps, 'timings' | 'clock' | 'store' | 'turnWrites' | 'waits'>,
  lane: Pick<RunLane, 'workspaceId' | 'agentId' | 'conversationId'>,
  expected: string | null,
): Promise<LaneTurn | null> {
  const listening = expected === null ? null : await StopListener.open(deps.waits, expected);
  const next = await claimTurn(deps, lane, expected).catch((error: unknown) => {
    listening?.close();
    throw error;
  });
  const stop = next !== null && next.claimed.id === expected ? listening : null;
  if (stop === null) listening?.close();
  return next === null ? null : { ...next, stop };
}

/** A claim's answer: the claimed run, and its turn's reads when they went with the claim. */
interface Claim {
  claimed: RunRecord;
  /** Null: the claim took another run than the one whose reads it asked (or asked none). */
  loaded: LoadedTurn | NotFoundError | null;
}

/**
 * T3: claims the lane's next queued run (one turn at a time per lane) and reads its turn. The
 * claim's transaction is shared with other lanes' claims made at the same time (`TurnWrites`:
 * their locks taken in the order of their keys) and is one message with its COMMIT: the run
 * `expected` (a job's own) has its reads asked with the claim. When the claim takes another
 * run (an older one of the lane) or none was expected, that run is read after the claim's
 * COMMIT, in a transaction of its own (one message too); it is this worker's already (T2: a
 * failure then leaves it `running`, to recovery, A12, as any failure of a claimed turn). Null
 * when there was nothing to claim.
 */
export async function claimTurn(
  deps: Pick<TurnDeps, 'timings' | 'clock' | 'store' | 'turnWrites'>,
  lane: Pick<RunLane, 'workspaceId' | 'agentId' | 'conversationId'>,
  expected: string | null,
): Promise<ClaimedTurn | null> {
  const claim = await deps.turnWrites.together(
    'claim',
    lane.workspaceId,
    (tx) => claimAndLoad(tx, deps, lane, expected),
    laneKey(lane),
  );
  if (claim === null) return null;
  const { claimed, loaded } = claim;
  if (loaded !== null) return { claimed, loaded };
  const read = await deps.store.inWorkspace(lane.workspaceId, (tx) => {
    // T3: reads alone: START, the reads and the COMMIT are one message.
    tx.commitWithNextMessage();
    return loadClaimedTurn(tx, deps, claimed);
  });
  return { claimed, loaded: read };
}

/**
 * The claim and, for the run `expected`, its reads, asked in the same tick (one message). The
 * reads are dropped (`loaded` null) when the claim took another run.
 */
async function claimAndLoad(
  tx: StoreTx,
  deps: Pick<TurnDeps, 'timings' | 'clock'>,
  lane: Pick<RunLane, 'workspaceId' | 'agentId' | 'conversationId'>,
  expected: string | null,
): Promise<Claim | null> {
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
  return { claimed, loaded: null };
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
