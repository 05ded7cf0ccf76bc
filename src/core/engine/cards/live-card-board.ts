import type { ReplyStep } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { LiveCard, LiveCardChange, LiveCardRelay } from '../../ports/live-card-relay';
import type { Logger } from '../../ports/logger';
import { stepRow } from './step-row';

export type { LiveCard };

/** The other processes' cards one board keeps at most (the oldest changed go first). */
const REMOTE_CARDS = 10_000;

export type LiveCardListener = (card: LiveCard) => void;

/** What a turn tells the board while it runs (its reply stream does, `TurnReplyStream`). */
export interface LiveCardFeed {
  headline(runId: string, text: string): void;
  row(runId: string, text: string): void;
  step(runId: string, step: ReplyStep): void;
  tokens(runId: string, used: number): void;
}

interface Entry {
  card: LiveCard;
  /** Where each tool call's row is, so its end replaces its own row. */
  stepAt: Map<string, number>;
}

/**
 * O5: the status cards of the turns this process runs, changed as each turn's card is (its
 * headline and rows; a tool call is a row here even where the platform shows it as a step of
 * the streamed reply, P14), and published to listeners: the console's live pages get what
 * changed without reading the store. With a relay attached (separate web and worker
 * processes), this board's changes go to the other processes, and theirs come here while
 * someone watches (has subscribed).
 */
export class LiveCardBoard implements LiveCardFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<LiveCardListener>();
  /** Cards of turns other processes run, newest change last; kept only while watched. */
  private readonly remote = new Map<string, LiveCard>();
  private relay: LiveCardRelay | null = null;
  private stopWatching: (() => void) | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  open(runId: string, workspaceId: string): void {
    const card = { runId, workspaceId, headline: 'Working on it…', rows: [], tokens: 0, seq: 0, at: 0 };
    this.entries.set(runId, { card, stepAt: new Map() });
  }

  close(runId: string): void {
    if (this.entries.delete(runId)) this.relay?.publish({ ended: runId });
  }

  cardOf(runId: string): LiveCard | null {
    return this.entries.get(runId)?.card ?? this.remote.get(runId) ?? null;
  }

  /** O5: where this board's changes go and the other processes' come from; null: none. */
  attach(relay: LiveCardRelay | null): void {
    this.unwatch();
    this.relay = relay;
    if (this.listeners.size > 0) this.watch();
  }

  /** Told each change of every card from now on; the returned function stops it. */
  subscribe(listener: LiveCardListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.watch();
    return () => {
      if (this.listeners.delete(listener) && this.listeners.size === 0) this.unwatch();
    };
  }

  headline(runId: string, text: string): void {
    this.change(runId, () => ({ headline: text }));
  }

  row(runId: string, text: string): void {
    this.change(runId, (card) => ({ rows: [...card.rows, text] }));
  }

  step(runId: string, step: ReplyStep): void {
    this.change(runId, (card, entry) => {
      const at = entry.stepAt.get(step.id);
      if (at === undefined) {
        entry.stepAt.set(step.id, card.rows.length);
        return { rows: [...card.rows, stepRow(step)] };
      }
      return { rows: card.rows.map((row, i) => (i === at ? stepRow(step) : row)) };
    });
  }

  tokens(runId: string, used: number): void {
    if (used > 0) this.change(runId, (card) => ({ tokens: card.tokens + used }));
  }

  /** Another process's change: kept and told unless this board has seen a newer one. */
  private receive(change: LiveCardChange): void {
    if ('ended' in change) {
      this.remote.delete(change.ended);
      return;
    }
    const { card } = change;
    const known = this.remote.get(card.runId);
    // One process's changes arrive in order; a card sent again (to a new watcher) is not newer,
    // and a run taken over by another worker counts again from 1, later (T2).
    const stale = known !== undefined && known.seq >= card.seq && known.at >= card.at;
    if (this.entries.has(card.runId) || stale) return;
    this.remote.delete(card.runId);
    this.remote.set(card.runId, card);
    // A process that died never says its runs ended: the oldest cards make room.
    for (const oldest of this.remote.keys()) {
      if (this.remote.size <= REMOTE_CARDS) break;
      this.remote.delete(oldest);
    }
    this.tell(card);
  }

  private watch(): void {
    if (this.relay !== null && this.stopWatching === null)
      this.stopWatching = this.relay.watch((change) => this.receive(change));
  }

  /** Nobody watches: other processes stop sending, and what they sent is no longer kept up to date. */
  private unwatch(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    this.remote.clear();
  }

  private change(runId: string, next: (card: LiveCard, entry: Entry) => Partial<LiveCard>): void {
    const entry = this.entries.get(runId);
    if (entry === undefined) return;
    const card = entry.card;
    entry.card = Object.assign({}, card, next(card, entry), {
      seq: card.seq + 1,
      at: this.clock.now().getTime(),
    });
    this.tell(entry.card);
    this.relay?.publish({ card: entry.card });
  }

  private tell(card: LiveCard): void {
    for (const listener of this.listeners) {
      try {
        listener(card);
      } catch (error) {
        // A viewer's stream that fails costs that viewer its update, never the turn.
        this.logger.warn({ err: error, runId: card.runId }, 'O5: a live card listener failed');
      }
    }
  }
}
