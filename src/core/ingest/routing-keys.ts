import type { InboxEntry } from '../model/inbox';

type Keyed = Pick<InboxEntry, 'platform' | 'threadKey' | 'channelKey'>;

/**
 * T4: the threads and channels of the inbox rows this process is routing now, counted (rows of
 * one batch often share them). A row stored in one of them is claimable only once they are
 * routed, and the lane routing them looks again when its batch is done (`InboxRouter.kick`).
 */
export class RoutingKeys {
  private readonly counts = new Map<string, number>();

  add(rows: readonly Keyed[]): void {
    for (const row of rows)
      for (const key of keysOf(row)) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  remove(rows: readonly Keyed[]): void {
    for (const row of rows) {
      for (const key of keysOf(row)) {
        const left = (this.counts.get(key) ?? 0) - 1;
        if (left > 0) this.counts.set(key, left);
        else this.counts.delete(key);
      }
    }
  }

  /** Whether a row in `entry`'s thread, or its channel (a top-level message), is being routed. */
  covers(entry: Keyed): boolean {
    return keysOf(entry).some((key) => this.counts.has(key));
  }
}

const keysOf = (row: Keyed): string[] => {
  const thread = `${row.platform}\u0000thread\u0000${row.threadKey}`;
  return row.channelKey === null ? [thread] : [thread, `${row.platform}\u0000channel\u0000${row.channelKey}`];
};
