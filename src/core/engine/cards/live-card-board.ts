import type { ReplyStep } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import { stepRow } from './step-row';

/** O5: what a running turn's status card shows now, as the web console draws it. */
export interface LiveCard {
  runId: string;
  workspaceId: string;
  headline: string;
  /** One row per tool call (and steered or compacted note), newest last. */
  rows: readonly string[];
  /** O3: the tokens its model calls reported to this process. */
  tokens: number;
  /** This run's changes counted from 1: a viewer keeps the highest it has seen. */
  seq: number;
  /** When this change was published (ms since the epoch). */
  at: number;
}

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
 * changed without reading the store. Turns run by another process are not here.
 */
export class LiveCardBoard implements LiveCardFeed {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<LiveCardListener>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  open(runId: string, workspaceId: string): void {
    const card = { runId, workspaceId, headline: 'Working on it…', rows: [], tokens: 0, seq: 0, at: 0 };
    this.entries.set(runId, { card, stepAt: new Map() });
  }

  close(runId: string): void {
    this.entries.delete(runId);
  }

  cardOf(runId: string): LiveCard | null {
    return this.entries.get(runId)?.card ?? null;
  }

  /** Told each change of every card from now on; the returned function stops it. */
  subscribe(listener: LiveCardListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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

  private change(runId: string, next: (card: LiveCard, entry: Entry) => Partial<LiveCard>): void {
    const entry = this.entries.get(runId);
    if (entry === undefined) return;
    const card = entry.card;
    entry.card = { ...card, ...next(card, entry), seq: card.seq + 1, at: this.clock.now().getTime() };
    for (const listener of this.listeners) {
      try {
        listener(entry.card);
      } catch (error) {
        // A viewer's stream that fails costs that viewer its update, never the turn.
        this.logger.warn({ err: error, runId }, 'O5: a live card listener failed');
      }
    }
  }
}
