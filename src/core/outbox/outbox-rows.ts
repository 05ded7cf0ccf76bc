import type { OutboxItem, OutboxRepository, OutboxRowState } from '../ports/outbox-store';
import type { Store } from '../ports/store';
import { type HeldCall, outcomeUnknown } from './sent-marks';

/**
 * T2: a deliverer's writes and reads of its calls' rows, each a transaction of its own, through
 * a connection lost while a COMMIT was in flight: what may have landed is read back, never
 * written twice blindly.
 */
export class OutboxRows {
  constructor(private readonly store: Store) {}

  /**
   * Stores the call. An insert whose COMMIT's outcome is unknown is looked up, once the database
   * answers, by the id it returned: there, it is sent; not there, it is stored again.
   */
  async add(item: Parameters<OutboxRepository['add']>[0]): Promise<OutboxItem> {
    for (;;) {
      const written: { row?: OutboxItem } = {};
      try {
        return await this.store.transaction(async (tx) => (written.row = await tx.outbox.add(item)));
      } catch (error) {
        const { row } = written;
        if (row === undefined || !outcomeUnknown(error)) throw error;
        if ((await this.stateOf(row.id)) !== null) return row;
      }
    }
  }

  /**
   * A state change of a call this deliverer holds. One whose COMMIT's outcome is unknown is read
   * back once the database answers and run again while the row is still as this deliverer's
   * mark left it (`sending` at that version): it did not land.
   */
  async change(held: HeldCall | null, change: (outbox: OutboxRepository, id: string) => Promise<void>) {
    if (held === null) return;
    for (;;) {
      try {
        return await this.store.transaction((tx) => change(tx.outbox, held.id));
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
        const now = await this.stateOf(held.id);
        if (now?.status !== 'sending' || now.version !== held.version) return;
      }
    }
  }

  /** The row as it is now; a read whose COMMIT's outcome is unknown changed nothing, and is read again. */
  async stateOf(id: string): Promise<OutboxRowState | null> {
    for (;;) {
      try {
        return await this.store.transaction((tx) => tx.outbox.state(id));
      } catch (error) {
        if (!outcomeUnknown(error)) throw error;
      }
    }
  }
}
