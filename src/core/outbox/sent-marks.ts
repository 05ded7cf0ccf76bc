import { ServiceUnavailableError } from '../errors';
import type { OutboxRowState } from '../ports/outbox-store';
import type { Store } from '../ports/store';
import { GroupCommit } from '../waits/group-commit';

/** A stored call a deliverer marked `sending`: its row and the version that mark wrote. */
export interface HeldCall {
  id: string;
  version: string;
}

/** T2: the connection dropped while the write's COMMIT was in flight: it may or may not be stored. */
export const outcomeUnknown = (error: unknown) => error instanceof ServiceUnavailableError && error.maybeDone;

/**
 * P7: records calls a deliverer holds as sent. T3: calls of any thread that went out at the same
 * time are recorded in one commit, and that commit is one round trip (the marks go with it).
 */
export class SentMarks {
  private readonly sent: GroupCommit<{ id: string; ref: string | null }, null>;

  constructor(
    store: Store,
    /** The row as it is now (read again while the database's answer is unknown). */
    private readonly stateOf: (id: string) => Promise<OutboxRowState | null>,
  ) {
    this.sent = new GroupCommit({
      write: (marks) =>
        store.transaction(async (tx) => {
          await Promise.all(marks.map((mark) => tx.outbox.markSent(mark.id, mark.ref)));
          return marks.map(() => null);
        }),
      slots: 2,
      maxBatch: 64,
      // T2: a batch whose COMMIT may have landed is not written again; each call reads its row back.
      splits: (error) => !outcomeUnknown(error),
    });
  }

  /**
   * Records the call as sent. T2: a mark whose COMMIT's outcome is unknown is read back once the
   * database answers and written again while the row is still as the deliverer's mark left it
   * (`sending` at that version): it did not land.
   */
  async mark(held: HeldCall, ref: string | null): Promise<void> {
    for (;;) {
      try {
        await this.sent.add({ id: held.id, ref });
        return;
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        const now = await this.stateOf(held.id);
        if (now?.status !== 'sending' || now.version !== held.version) return;
      }
    }
  }
}
