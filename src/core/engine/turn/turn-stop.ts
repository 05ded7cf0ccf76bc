import type { RunRecord } from '../../model/records';
import { stoppedBySentence, stopRequestOf } from '../stop/stop-run';
import type { TurnResult } from './finish-turn';
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
