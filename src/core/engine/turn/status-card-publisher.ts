import type { Platform } from '../../model/platform';
import { CallWithdrawn, DeliveryError } from '../../outbox/delivery-error';
import type { ChatPlatform, StatusCard, ThreadId } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { SignOfLife } from './sign-of-life';

/**
 * P9: one status card per turn, posted when the turn starts (the turn does not wait for it, P7)
 * and edited in place. Edits are coalesced to one per interval: a burst of tool calls becomes
 * one edit, and the last state is always written by `finish`.
 */
export class StatusCardPublisher {
  private card: StatusCard;
  private ref: string | null = null;
  private lastEditAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** The card's post while the platform has not taken it yet; the final edit waits for it. */
  private opening: Promise<void> = Promise.resolve();
  private givenUp: DeliveryError | null = null;
  /** Whether the card's post was started (at once, or once the turn's sign of life was due). */
  private started = false;
  private posting: ((ref: string) => Promise<void>) | null = null;
  /** P21: told every change of the card (a check on GitHub follows it). */
  private observer: ((card: StatusCard) => void) | null = null;
  /** P9 (decision): the turn's end, which withdraws a card post the platform held back. */
  private withdrawal: AbortSignal | null = null;

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

  /**
   * Posts the card, or takes the run's card back (a resumed turn), without waiting for the
   * platform: P7, the post may wait out an outage while the turn goes on. Rows and edits made
   * meanwhile are written once the card exists; `posted` gets a new card's ref (kept on the run
   * so it can be edited after a restart). A card the platform never took is logged, not fatal:
   * the turn goes on, and `posted` tells a turn that ends well.
   */
  open(existingRef: string | null, posted: (ref: string) => Promise<void>, sign?: SignOfLife): void {
    if (existingRef !== null) {
      this.started = true;
      this.ref = existingRef;
      this.writing = this.write();
      return;
    }
    this.posting = posted;
    this.withdrawal = sign?.withdrawal ?? null;
    // P9 (decision): a new card waits for the turn's sign of life; a turn done sooner has none.
    if (sign === undefined) this.post();
    else sign.whenDue(() => this.post());
  }

  private post(): void {
    const posted = this.posting;
    if (this.started || posted === null) return;
    this.started = true;
    const first = this.message();
    // P9 (decision): only the working card is a sign of life; a card posted at the end shows how it ended.
    const withdrawn = this.card.state === 'working' ? (this.withdrawal ?? undefined) : undefined;
    this.opening = this.platform.post(this.thread, first, { withdrawn }).then(
      async (ref) => {
        this.ref = ref;
        this.lastEditAt = this.clock.now().getTime();
        if (JSON.stringify(this.message()) !== JSON.stringify(first)) this.schedule();
        await posted(ref).catch((error: unknown) =>
          this.logger.warn({ err: error }, 'status card ref could not be stored'),
        );
      },
      (error: unknown) => {
        // P9 (decision): withdrawn, it was never shown: the card's end decides as for a turn done sooner.
        if (error instanceof CallWithdrawn) {
          this.started = false;
          return;
        }
        this.logger.warn({ err: error }, 'status card could not be posted');
        if (error instanceof DeliveryError) this.givenUp = error;
      },
    );
  }

  /**
   * P7: waits for the card's post; throws when the platform never took it (refused for good,
   * or away longer than the outbox waits), so that a turn ending well says why in its thread
   * rather than leaving it without a card.
   */
  async posted(): Promise<void> {
    await this.opening;
    if (this.givenUp !== null) throw this.givenUp;
  }

  /** P21: `listener` is told each change of the card's headline and rows, shown or not. */
  observe(listener: (card: StatusCard) => void): void {
    this.observer = listener;
  }

  current(): StatusCard {
    return this.card;
  }

  /** P21: the turn the card is of, and where it is posted. */
  turn(): { runId: string | null; agent: string; platform: Platform; thread: ThreadId } {
    return {
      runId: this.runId,
      agent: this.speaker.name,
      platform: this.platform.platform,
      thread: this.thread,
    };
  }

  /** The card's platform ref once it exists (for checkpoints, T2); null while it is on its way. */
  currentRef(): string | null {
    return this.ref;
  }

  headline(text: string): void {
    this.card = Object.assign({}, this.card, { headline: text });
    this.schedule();
  }

  row(text: string): void {
    this.card = Object.assign({}, this.card, { rows: [...this.card.rows, text] });
    this.schedule();
  }

  replaceLastRow(text: string): void {
    this.card = Object.assign({}, this.card, { rows: [...this.card.rows.slice(0, -1), text] });
    this.schedule();
  }

  /**
   * The card's last state. A card not posted yet (the turn's sign of life was not due) is
   * posted in it, once, unless `unshown` is `skip`: P9 (decision), a turn that ended well
   * before anyone saw it working needs no "done" card beside its reply, and one handed back
   * (T2) shows its card when it runs again.
   */
  async finish(
    state: StatusCard['state'],
    headline: string,
    unshown: 'post' | 'skip' = 'post',
  ): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.card = Object.assign({}, this.card, { state, headline });
    // A post on its way is taken or withdrawn (P9) before the card's end is decided.
    await this.opening;
    if (!this.started) {
      if (unshown === 'skip') {
        this.posting = null;
        return;
      }
      this.post();
      await this.opening;
      return;
    }
    await this.writing;
    await this.write();
  }

  private schedule(): void {
    this.observer?.(this.card);
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
