import type { RunRecord } from '../../model/records';
import { StopListener } from '../stop/stop-listener';
import { stoppedBySentence, stopRequestOf } from '../stop/stop-run';
import type { TurnResult } from './finish-turn';
import type { SignOfLife } from './sign-of-life';
import type { StatusCardPublisher } from './status-card-publisher';
import type { TurnDeps } from './turn-deps';

/**
 * P15: a person's Stop of a running turn, clicked in whichever process: read with the run or
 * heard from its stop notifications, it aborts the turn (its runner, its tools, whose process
 * groups are killed on abort, and any wait it is suspended in), once.
 */
export class TurnStop {
  private by: string | null = null;

  constructor(
    private readonly deps: Pick<TurnDeps, 'store' | 'logger'>,
    private readonly run: Pick<RunRecord, 'id' | 'workspaceId'>,
    private readonly abort: AbortController,
  ) {}

  /** Someone asked the turn to stop. */
  get asked(): boolean {
    return this.by !== null;
  }

  /** The run as read: a stop asked on it aborts the turn. */
  check(current: RunRecord | null): void {
    const by = stopRequestOf(current);
    if (by === null || this.by !== null) return;
    this.by = by;
    this.deps.logger.info({ runId: this.run.id, stoppedBy: by }, 'turn stopped by a person');
    this.abort.abort(new Error(stoppedBySentence(by)));
  }

  /** A stop notification: the run is read again (a failed read is logged; the turn goes on). */
  heard(): void {
    const { deps, run } = this;
    deps.store
      .inWorkspace(run.workspaceId, (tx) => tx.runs.findById(run.id))
      .then((current) => this.check(current))
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, runId: run.id }, 'reading a stop request failed'),
      );
  }

  /** A failed result of a stopped turn says who stopped it. */
  settle(result: TurnResult): TurnResult {
    return this.by === null || result.ok
      ? result
      : { ok: false, error: stoppedBySentence(this.by), interrupted: false, stoppedBy: this.by };
  }
}

/**
 * P7: the card is posted beside the turn, not before it; its ref is stored when it arrives,
 * after the read-back below (which would otherwise write the ref it read over the new one).
 * P15: the stop listener is subscribed first, then the run read back where its card's ref is
 * stored (one transaction for both): a stop asked before is in what is read, one asked after
 * is heard.
 */
export async function openCardAndListen(
  deps: TurnDeps,
  claimed: RunRecord,
  card: StatusCardPublisher,
  sign: SignOfLife,
  listening: StopListener | null,
): Promise<{ stop: StopListener; current: RunRecord | null }> {
  const store = (ref: string) => deps.turnWrites.storeCardRef(claimed.workspaceId, claimed.id, ref);
  // P15: heard since before the claim (T3: no read-back), unless its card is posted at once (T2: its ref stored before it runs).
  const early = listening !== null && !sign.due && claimed.statusCardRef === null;
  if (early) card.open(null, async (ref) => void (await store(ref)), sign);
  if (early) return { stop: listening, current: claimed };
  // T2: a card posted at once has its ref stored by the read-back, which subscribes its own listener.
  listening?.close();
  let readBack = () => {};
  const afterReadBack = new Promise<void>((resolve) => (readBack = resolve));
  // T3: a card posted before the read-back starts has its ref stored by it, in the same write.
  let reading = false;
  let arrived: string | null = null;
  card.open(
    claimed.statusCardRef,
    async (ref) => {
      if (!reading) {
        arrived = ref;
        return;
      }
      await afterReadBack;
      await store(ref);
    },
    sign,
  );
  try {
    const stop = await StopListener.open(deps.waits, claimed.id);
    try {
      reading = true;
      // T3: with the card refs of turns storing theirs at the same time, in one transaction.
      const current = await deps.turnWrites.storeCardRef(
        claimed.workspaceId,
        claimed.id,
        arrived ?? claimed.statusCardRef,
      );
      return { stop, current };
    } catch (error) {
      stop.close();
      throw error;
    }
  } finally {
    // Failed before the read-back: a ref that arrived meanwhile is still stored, as later ones are.
    const unstored = reading ? null : arrived;
    reading = true;
    readBack();
    if (unstored !== null)
      await store(unstored).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'status card ref could not be stored'),
      );
  }
}
