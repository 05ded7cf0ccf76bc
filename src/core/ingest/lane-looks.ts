import type { InboxEntry } from '../model/inbox';

type Keyed = Pick<InboxEntry, 'platform' | 'threadKey' | 'channelKey'>;

/** One lane's look: its claim not answered yet, then the rows its claims took. */
export interface Look {
  answered: boolean;
  readonly held: Keyed[];
}

/**
 * T4: what this process's inbox lanes will look at, so that a stored row starts no lane that
 * would find nothing (`InboxRouter.kick`). A lane whose claim has not answered yet will see the
 * row, or look again after the kick; a lane routing rows of the row's thread or channel looks
 * again once its batch is routed, and the row cannot be claimed before that. The threads and
 * channels are counted: the rows of one batch often share them.
 */
export class LaneLooks {
  private unanswered = 0;
  private readonly routing = new Map<string, number>();

  /** A lane begins a look: its claim is yet to answer. */
  begin(): Look {
    this.unanswered += 1;
    return { answered: false, held: [] };
  }

  /** The look's claim took `rows`: their threads and channels are being routed. */
  took(look: Look, rows: readonly Keyed[]): void {
    for (const row of rows) {
      look.held.push(row);
      this.count(threadKey(row), 1);
      if (row.channelKey !== null) this.count(channelKey(row), 1);
    }
  }

  /** The look's first claim answered, or the look ended without one. */
  answered(look: Look): void {
    if (look.answered) return;
    look.answered = true;
    this.unanswered -= 1;
  }

  /** The lane has decided what comes after the look: its rows' threads and channels are let go. */
  end(look: Look): void {
    this.answered(look);
    for (const row of look.held.splice(0)) {
      this.count(threadKey(row), -1);
      if (row.channelKey !== null) this.count(channelKey(row), -1);
    }
  }

  /** Whether a lane of this process will look for `entry` without a new one started. */
  willSee(entry: Keyed): boolean {
    return (
      this.unanswered > 0 ||
      this.routing.has(threadKey(entry)) ||
      (entry.channelKey !== null && this.routing.has(channelKey(entry)))
    );
  }

  private count(key: string, by: 1 | -1): void {
    const left = (this.routing.get(key) ?? 0) + by;
    if (left > 0) this.routing.set(key, left);
    else this.routing.delete(key);
  }
}

const threadKey = (row: Keyed) => `${row.platform}\u0000thread\u0000${row.threadKey}`;
const channelKey = (row: Keyed) => `${row.platform}\u0000channel\u0000${row.channelKey}`;
