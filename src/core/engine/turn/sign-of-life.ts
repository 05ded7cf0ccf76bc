/**
 * P9, P14 (decision): what a turn shows before its reply — its status card, the platform's
 * session status, the first chunk of its stream — is shown once the turn has run `delayMs`.
 * A turn that ends sooner posts just its reply: a card posted and finished, or a stream
 * started and stopped around one chunk, in the same moment, is seen by nobody as anything but
 * noise, and costs platform calls and the outbox's writes. A slower turn still shows its sign
 * of life within `delayMs`. With 0 everything is shown at once, as it is asked for.
 */
/** Why a turn's `withdrawal` aborted: it ended (nobody reads more than that it aborted). */
const TURN_ENDED = new Error('The turn ended.');

export class SignOfLife {
  private timer: NodeJS.Timeout | null = null;
  private shown = false;
  private ended = false;
  private readonly waiting: (() => void)[] = [];
  private readonly over = new AbortController();

  constructor(private readonly delayMs: number) {
    if (delayMs <= 0) {
      this.shown = true;
      return;
    }
    this.timer = setTimeout(() => this.show(), delayMs);
    this.timer.unref();
  }

  /** Whether the turn's sign of life is due (or was shown): what it shows goes out now. */
  get due(): boolean {
    return this.shown;
  }

  /**
   * P7, P9 (decision): aborts when the turn ends; what it showed and the platform had not sent
   * yet, because its calls were backed up, is withdrawn (`DeliverOptions.withdrawn`). Null
   * when everything is shown at once, as it is asked for.
   */
  get withdrawal(): AbortSignal | null {
    return this.delayMs <= 0 ? null : this.over.signal;
  }

  /** `show` runs once the sign of life is due: at once when it is, never after `end`. */
  whenDue(show: () => void): void {
    if (this.shown) show();
    else if (!this.ended) this.waiting.push(show);
  }

  /** Shows it now (the turn waits for a person, or a failure is to be seen): what was held goes out. */
  show(): void {
    if (this.shown || this.ended) return;
    this.clear();
    this.shown = true;
    for (const show of this.waiting.splice(0)) show();
  }

  /** The turn ended: nothing held back is shown any more. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    // T3: a reason made once: `abort()` without one builds a DOMException, stack and all, on every call.
    this.over.abort(TURN_ENDED);
    this.clear();
    this.waiting.length = 0;
  }

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
