/** O5: what a running turn's status card shows now, as the web console draws it. */
export interface LiveCard {
  runId: string;
  workspaceId: string;
  headline: string;
  /** One row per tool call (and steered or compacted note), newest last. */
  rows: readonly string[];
  /** Rows before `rows` left out on the way from another process (`boundedCard`). */
  earlier?: number;
  /** O3: the tokens its model calls reported to the process running it. */
  tokens: number;
  /** This run's changes counted from 1: a viewer keeps the highest it has seen. */
  seq: number;
  /** When this change was published (ms since the epoch). */
  at: number;
}

/** A card of another process changed, or its run ended there (the card goes). */
export type LiveCardChange = { card: LiveCard } | { ended: string };

/**
 * O5: the live cards crossing processes. With separate web and worker processes (SUMMON_ROLE),
 * turns run on workers while the console is served by the web process: each process publishes
 * its own cards' changes, and a process whose console is being watched receives the others'.
 * A Redis pub/sub adapter (`RedisLiveCardRelay`); one process alone needs none, its board is
 * what its console reads.
 */
export interface LiveCardRelay {
  /** This process's card changed or its run ended. Never throws; sent only while watched. */
  publish(change: LiveCardChange): void;
  /**
   * Receives the other processes' changes from now on (and, at once, every card they hold),
   * until the returned function is called.
   */
  watch(onChange: (change: LiveCardChange) => void): () => void;
}

/** The rows a card carries across processes: the console shows no more (its older rows as a count). */
export const LIVE_CARD_ROWS = 8;
/** A row or headline longer than this crosses cut, so one message stays small. */
const LIVE_CARD_TEXT = 500;

const cut = (text: string) => (text.length > LIVE_CARD_TEXT ? `${text.slice(0, LIVE_CARD_TEXT - 1)}…` : text);

/** O5: the card as it crosses: its newest rows, the others counted; long texts cut. */
export function boundedCard(card: LiveCard): LiveCard {
  const dropped = Math.max(0, card.rows.length - LIVE_CARD_ROWS);
  return {
    ...card,
    headline: cut(card.headline),
    rows: card.rows.slice(dropped).map(cut),
    earlier: (card.earlier ?? 0) + dropped,
  };
}
