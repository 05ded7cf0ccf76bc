import type { OutboxRowState } from '../ports/outbox-store';
import type { Store } from '../ports/store';
import type { AbandonedCalls } from './abandoned-calls';
import { DeliveryError } from './delivery-error';
import { type HeldCall, outcomeUnknown } from './sent-marks';

/** What taking a stored call came to: held by this deliverer, or sent by another one (its ref). */
export type Taken = { held: HeldCall } | { sentElsewhere: string | null };

/**
 * P7: the longest a deliverer waits between two looks at a call another deliverer holds: after
 * that call's outcome its lane waits at most this long more.
 */
export const TAKEN_CALL_LOOK_MAX_MS = 1_000;

export interface CallTakerOptions {
  store: Store;
  /** The row as it is now (read again while the database's answer is unknown). */
  stateOf: (id: string) => Promise<OutboxRowState | null>;
  abandoned: AbandonedCalls;
  /** P7, T2, A12: how old a `sending` mark must be for its sender to be taken for dead. */
  abandonAfterMs: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** The first wait between looks; doubled each look up to `maxLookMs`. */
  firstLookMs: number;
  maxLookMs: number;
}

/** The mark of another deliverer a call is waited out under, and since when (this process's clock). */
interface Watch {
  looks: number;
  mark: { version: string; since: number } | null;
}

/**
 * P7, T2, A12: marks a stored call `sending` before it goes out. Several workers share the
 * outbox, and one that starts sends every `pending` row (`resume`): a call waiting in its
 * deliverer's lane or out a retry's wait may be taken by another deliverer. Its outcome is then
 * this delivery's: sent, it resolves with the ref stored; failed, it rejects as that failure;
 * `sending`, it is looked at again until one of those (a dead sender's mark is failed once it is
 * old enough, by the same rule a restart applies); back to `pending` (the other's try failed
 * and waits to be retried), it is taken here and sent, as that other would.
 */
export class CallTaker {
  constructor(private readonly options: CallTakerOptions) {}

  async take(id: string): Promise<Taken> {
    const watch: Watch = { looks: 0, mark: null };
    for (;;) {
      const held = await this.mark(id);
      if (held !== null) return { held };
      const row = await this.options.stateOf(id);
      if (row === null) throw new DeliveryError('This outgoing call is stored no more.', { kind: 'never' });
      if (row.status === 'sent') return { sentElsewhere: row.platformRef };
      if (row.status === 'failed')
        throw new DeliveryError(row.lastError ?? 'This outgoing call failed.', { kind: 'never' });
      if (row.status === 'sending') await this.waitOut(row.version, watch);
    }
  }

  /**
   * The mark itself; null when the call is not `pending`. T2: a mark whose COMMIT's outcome is
   * unknown is read back once the database answers: `sending` under this very mark, it landed;
   * still `pending`, it is marked again.
   */
  private async mark(id: string): Promise<HeldCall | null> {
    for (;;) {
      const written: { version?: string | null } = {};
      try {
        const version = await this.options.store.transaction(
          async (tx) => (written.version = await tx.outbox.markSending(id)),
        );
        return version === null ? null : { id, version };
      } catch (error) {
        const { version } = written;
        if (typeof version !== 'string' || !outcomeUnknown(error)) throw error;
        const now = await this.options.stateOf(id);
        if (now?.status === 'sending' && now.version === version) return { id, version };
        if (now?.status !== 'pending') return null;
      }
    }
  }

  /**
   * P7: waits before looking again at a call another deliverer holds. The lane waits with it: the
   * thread's next call must not go out before this one (its order), and a live sender holds a
   * call for one request. Nothing scarce is held meanwhile: each look is a transaction of its
   * own, no connection is kept between looks, and other lanes go on. P7, T2, A12: a mark held
   * longer than any live sender holds one is its sender's death: the rule a restart applies is
   * applied here (`AbandonedCalls`), so the call fails and the wait ends.
   */
  private async waitOut(version: string, watch: Watch): Promise<void> {
    const { now, abandonAfterMs, firstLookMs, maxLookMs } = this.options;
    const at = now();
    if (watch.mark?.version !== version) watch.mark = { version, since: at };
    else if (at - watch.mark.since >= abandonAfterMs) await this.options.abandoned.failNow();
    const wait = Math.min(maxLookMs, firstLookMs * 2 ** watch.looks);
    watch.looks += 1;
    await this.options.sleep(wait);
  }
}
