/**
 * Group commit: callers hand in one item each and wait for its result; the items that arrive
 * while earlier ones are being written go to the database together, in one statement (one
 * round trip, one commit). Nothing waits for a timer: with a write slot free an item is written
 * at once, alone; only while every slot is busy do items gather, and the next free slot takes
 * all of them (up to `maxBatch`). So an idle system adds no latency and a busy one pays one
 * commit for many items.
 *
 * `write` resolves with one result per item, in order; when it throws, every item of that
 * batch is written again on its own, so one item the database refuses fails alone and the
 * others of its batch still succeed — unless `splits` says that failure is not one to write
 * again (T2: a batch whose COMMIT may have landed), when every item of the batch gets it.
 *
 * Used by the inbox (T4, `TypeormStore.addToInbox`) and by the turns' card refs and replies
 * (T3, `engine/turn-writes.ts`).
 */
export interface GroupCommitOptions<I, O> {
  write: (items: readonly I[]) => Promise<O[]>;
  /** Batches written at once (PostgreSQL: each on its own connection; an embedded database: 1). */
  slots: number;
  /** Items in one batch at most. */
  maxBatch: number;
  /** Whether a batch that failed with `error` is written again item by item (default: always). */
  splits?: (error: unknown) => boolean;
}

interface Waiting<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<I, O> {
  private readonly waiting: Waiting<I, O>[] = [];
  private busy = 0;

  constructor(private readonly options: GroupCommitOptions<I, O>) {
    if (options.slots < 1 || options.maxBatch < 1)
      throw new Error('A group commit needs a slot and a batch.');
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.busy < this.options.slots && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.busy += 1;
      void this.flush(batch).finally(() => {
        this.busy -= 1;
        this.next();
      });
    }
  }

  private async flush(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await this.options.write(batch.map((w) => w.item));
      if (results.length !== batch.length)
        throw new Error('A group write returned the wrong number of results.');
      for (const [i, w] of batch.entries()) w.resolve(results[i] as O);
    } catch (error) {
      if (batch.length === 1 || this.options.splits?.(error) === false) {
        for (const w of batch) w.reject(error);
        return;
      }
      // One refused item must not fail the others: each is written again on its own, one
      // after another (all at once could take every connection of the pool).
      for (const w of batch) await this.flush([w]);
    }
  }
}
