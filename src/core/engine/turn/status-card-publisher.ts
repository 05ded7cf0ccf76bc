import type { ChatPlatform, StatusCard, ThreadId } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';

/**
 * P9: one status card per turn, posted when the turn starts and edited in place. Edits are
 * coalesced to one per interval: a burst of tool calls becomes one edit, and the last state
 * is always written by `finish`.
 */
export class StatusCardPublisher {
  private card: StatusCard;
  private ref: string | null = null;
  private lastEditAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly platform: ChatPlatform,
    private readonly thread: ThreadId,
    private readonly speaker: { name: string; avatarUrl: string | null },
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly clock: Clock,
    /** P15: the turn's run, which the card's Stop button carries while it works. */
    private readonly runId: string | null = null,
  ) {
    this.card = { agent: speaker.name, state: 'working', headline: 'Working on it…', rows: [] };
  }

  /** Posts the card; returns its platform ref (kept on the run so it can be edited after a restart). */
  async open(existingRef: string | null): Promise<string> {
    if (existingRef !== null) {
      this.ref = existingRef;
      await this.write();
      return existingRef;
    }
    this.ref = await this.platform.post(this.thread, this.message());
    this.lastEditAt = this.clock.now().getTime();
    return this.ref;
  }

  headline(text: string): void {
    this.card = { ...this.card, headline: text };
    this.schedule();
  }

  row(text: string): void {
    this.card = { ...this.card, rows: [...this.card.rows, text] };
    this.schedule();
  }

  replaceLastRow(text: string): void {
    this.card = { ...this.card, rows: [...this.card.rows.slice(0, -1), text] };
    this.schedule();
  }

  async finish(state: StatusCard['state'], headline: string): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.card = { ...this.card, state, headline };
    await this.writing;
    await this.write();
  }

  private schedule(): void {
    if (this.timer !== null || this.ref === null) return;
    const wait = Math.max(0, this.lastEditAt + this.intervalMs - this.clock.now().getTime());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.write());
    }, wait);
  }

  private async write(): Promise<void> {
    if (this.ref === null) return;
    this.lastEditAt = this.clock.now().getTime();
    try {
      await this.platform.update(this.thread, this.ref, this.message());
    } catch (error) {
      // A lost edit is cosmetic; the next edit or the final one carries the whole card.
      this.logger.warn({ err: error }, 'status card edit failed');
    }
  }

  private message() {
    // P15: Stop only while the turn runs; a finished card has no button.
    const card =
      this.card.state === 'working' && this.runId !== null
        ? { ...this.card, stopRunId: this.runId }
        : this.card;
    return {
      as: { kind: 'agent' as const, name: this.speaker.name, avatarUrl: this.speaker.avatarUrl },
      content: { kind: 'status' as const, card },
    };
  }
}
