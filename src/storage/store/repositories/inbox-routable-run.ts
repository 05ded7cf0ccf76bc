/** A row of the claim window, oldest first, as the claim statement returns it. */
export interface WindowRow {
  platform: string;
  threadKey: string;
  channelKey: string | null;
  /** Due (`available_at` passed) and of a platform this router decodes. */
  due: boolean;
  /** Locked by this claim: the head of its thread and of its channel's top level. */
  locked: boolean;
}

/**
 * T4: which rows of the claim window, oldest first, this transaction may route now, in that
 * order, up to `limit` (their indexes). A row it locked (a head: no earlier unrouted row of its
 * thread or, for a top-level message, of its channel) may be routed. So may a due row all of
 * whose earlier rows in its thread and channel are taken here, before it: no other transaction
 * can take it meanwhile, since it is no head while those rows are unrouted, and they become
 * routed only when this transaction commits, with it. A row that is neither (another
 * transaction's head, a row waiting for its retry, one of a platform not decoded here) holds
 * back every later row of its thread and channel.
 */
export function routableRun(window: readonly WindowRow[], limit: number): number[] {
  const ours = new Set<string>();
  const held = new Set<string>();
  const taken: number[] = [];
  for (const [index, row] of window.entries()) {
    if (taken.length >= limit) break;
    const groups = [
      `${row.platform}\u0000thread\u0000${row.threadKey}`,
      ...(row.channelKey === null ? [] : [`${row.platform}\u0000channel\u0000${row.channelKey}`]),
    ];
    const follows =
      row.due && groups.every((group) => !held.has(group)) && groups.some((group) => ours.has(group));
    if (row.locked || follows) {
      taken.push(index);
      for (const group of groups) ours.add(group);
    } else {
      for (const group of groups) held.add(group);
    }
  }
  return taken;
}
