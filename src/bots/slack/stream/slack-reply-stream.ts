import type { ReplyStep, ReplyStream } from '../../../core/ports/chat-platform';
import { replyTail } from '../../../core/streaming/reply-tail';
import { openFenceAt } from '../../../core/text/open-fence';
import { type Pending, slackErrorOf } from './slack-stream-chunks';
import { SlackStreamMessages, STREAM_OVER } from './slack-stream-messages';
import type { SlackReplyStreamOptions, StreamSegment } from './slack-stream-options';
import { FULL, messageRoom, streamPieces, takePending } from './slack-stream-pieces';

/**
 * P14 on Slack: the reply streams into the thread with `chat.startStream` / `appendStream` /
 * `stopStream` under the agent's `username` and `icon_url`, tool calls as `task_update` chunks.
 * Before Slack's stream age limit (and before a message grows past the part limit) the message
 * is stopped and the reply goes on in a new one; a stream Slack already closed gets the refused
 * text in a new message, so nothing is lost or shown twice. A fence open at a cut is closed and
 * opened again (P7). Refused at the start (no streaming here), the engine posts instead.
 */
export class SlackReplyStream implements ReplyStream {
  readonly showsSteps = true;
  private readonly pending: Pending[] = [];
  private readonly steps = new Map<string, ReplyStep>();
  private readonly segments: StreamSegment[] = [];
  private open: StreamSegment | null = null;
  private streamed = '';
  /** The part of `streamed` that is in some message (or handed to a post). */
  private shown = 0;
  private refused = false;
  /** Streaming failed after it had shown something: the rest is posted at the end. */
  private broken = false;
  /** P15: Slack closed the stream at a person's Stop and the turn is stopping: nothing more is shown. */
  private halted = false;
  private ended = false;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private lastWriteAt = 0;
  /** Whether a write was tried (the first waits `startAfterMs`, and more than one chunk). */
  private wrote = false;
  private appends = 0;
  private firstAt: number | null = null;
  private readonly now: () => number;
  private readonly messages: SlackStreamMessages;

  constructor(private readonly options: SlackReplyStreamOptions) {
    this.now = options.now ?? (() => Date.now());
    this.messages = new SlackStreamMessages(options);
  }

  append(delta: string): void {
    if (this.ended || delta === '') return;
    this.streamed += delta;
    const last = this.pending.at(-1);
    if (last?.kind === 'text') last.text += delta;
    else this.pending.push({ kind: 'text', text: delta });
    this.appends += 1;
    this.schedule();
  }

  step(step: ReplyStep): void {
    if (this.ended) return;
    this.steps.set(step.id, step);
    this.pending.push({ kind: 'step', step });
    this.schedule();
  }

  async finish(reply: string): Promise<string | null> {
    this.append(replyTail(this.streamed, reply));
    await this.end();
    const first = this.segments[0];
    if (first === undefined) return null;
    if (this.shown < this.streamed.length && !this.halted) {
      // Part of the reply is in the thread already: a failure here must not make the caller post it all again.
      await this.postRest().catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'posting the rest of a streamed reply failed'),
      );
    }
    return first.ts;
  }

  async abandon(): Promise<void> {
    await this.end();
  }

  private async end(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.ended = true;
    await this.writing;
    // Nothing started yet: no stream is opened only to be closed (the reply is posted instead).
    if (this.segments.length === 0) return;
    await this.flush(true);
    if (this.open !== null) await this.stop(this.open, '');
  }

  /** P14, P7: ended unopened when nothing was started (its start still held): the reply is posted whole. */
  async closeIfUnshown(): Promise<boolean> {
    // Without a hold the stream starts with its first words, as asked; `finish` ends it.
    if (this.options.settings.startAfterMs <= 0) return false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    // A start already on its way lands first; then the stream is shown, and `finish` ends it.
    await this.writing.catch(() => undefined);
    // A tool call waiting to show as a step is shown (`finish` starts the stream with it).
    if (this.segments.length > 0 || this.pending.some((item) => item.kind === 'step')) return false;
    this.ended = true;
    this.pending.length = 0;
    return true;
  }

  private schedule(): void {
    if (this.timer !== null || this.ended) return;
    const { intervalMs, startAfterMs } = this.options.settings;
    // P14 (decision): the first words wait a moment, so a reply done by then is posted whole.
    this.firstAt ??= this.now();
    const wait = this.wrote
      ? Math.max(0, this.lastWriteAt + intervalMs - this.now())
      : Math.max(0, this.firstAt + startAfterMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      // P14 (decision): nor does one chunk alone start it (an answer that came whole, however
      // late its end is taken): more words or a tool call do.
      if (!this.wrote && startAfterMs > 0 && this.onlyFirstWords()) return;
      this.writing = this.writing.then(() => this.flush(false));
    }, wait);
    this.timer.unref();
  }

  private onlyFirstWords(): boolean {
    return this.appends === 1 && this.pending.every((item) => item.kind === 'text');
  }

  /** Sends what is pending, in order: text and steps into the open message, rolling over when due. */
  private async flush(final: boolean): Promise<void> {
    this.lastWriteAt = this.now();
    this.wrote = true;
    if (this.refused || this.broken || this.halted || this.pending.length === 0) return;
    const items = takePending(this.pending, final);
    if (items.length === 0) return;
    const open = this.open;
    if (open !== null && this.now() - open.startedAt >= this.options.settings.rolloverAfterMs) {
      await this.stop(open, '');
    }
    for (const piece of streamPieces(
      items,
      () => this.room(),
      () => this.open !== null,
    )) {
      if (!(await this.send(piece))) return;
    }
  }

  /**
   * P7: what the open message (or the next one) still takes: the part limit less its text, the
   * fence line opened again at its start and the room to close a fence at its end.
   */
  private room(): number {
    return messageRoom(
      this.open?.text ?? null,
      this.open === null ? this.reopening() : null,
      this.options.partLimit,
    );
  }

  /** The fence line a new message opens with: the fence open at the end of the last one. */
  private reopening(): string | null {
    const previous = this.segments.at(-1);
    return previous === undefined ? null : openFenceAt(previous.text);
  }

  /** One start or append; a full message is stopped after it. False once streaming is over. */
  private async send(batch: Pending[]): Promise<boolean> {
    const full = batch.at(-1) === FULL;
    const items = full ? batch.slice(0, -1) : batch;
    const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const open = this.open;
      try {
        if (open === null) await this.start(items);
        else await this.appendTo(open, items);
        this.shown += text.length;
        const current = this.open;
        if (full && current !== null) await this.stop(current, '');
        return true;
      } catch (error) {
        const code = slackErrorOf(error);
        if (open !== null && code === STREAM_OVER && (await this.stopAsked())) {
          // P15: Slack closed the message at a person's Stop (its native one) and the turn is
          // stopping: the reply is not continued in a new message.
          this.halted = true;
          this.options.logger.info({ ts: open.ts }, 'reply stream stopped by a person: not continued');
          this.open = null;
          return false;
        }
        if (open !== null && attempt === 0) {
          // Slack closed the message (its age limit) or lost it: the same text goes into a new one.
          this.options.logger.info(
            { ts: open.ts, slackError: code },
            'reply stream continues in a new message',
          );
          this.open = null;
          continue;
        }
        return this.give(open === null && this.segments.length === 0, code, error);
      }
    }
    return false;
  }

  /** P15: whether the turn was asked to stop (a failure to tell counts as no). */
  private async stopAsked(): Promise<boolean> {
    try {
      return (await this.options.opening.stopAsked?.()) === true;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'reading whether the turn was stopped failed');
      return false;
    }
  }

  /** Streaming is over for this turn: refused at the start (the engine posts), or broken later. */
  private give(refusedAtStart: boolean, code: string | undefined, error: unknown): false {
    if (refusedAtStart) {
      this.refused = true;
      this.options.logger.info(
        { slackError: code },
        'Slack refused to stream the reply: it is posted instead',
      );
      this.options.opening.onRefused();
    } else {
      this.broken = true;
      this.options.logger.warn({ err: error }, 'the reply stream failed: the rest of the reply is posted');
    }
    return false;
  }

  private async start(items: Pending[]): Promise<void> {
    const reopen = this.reopening();
    // The steps still running are shown again, so their end lands on the new message.
    const running = [...this.steps.values()]
      .filter(
        (s) => s.status === 'in_progress' && !items.some((i) => i.kind === 'step' && i.step.id === s.id),
      )
      .map((step): Pending => ({ kind: 'step', step }));
    const lead: Pending[] = reopen === null ? [] : [{ kind: 'text', text: `${reopen}\n` }];
    const segment = await this.messages.start([...lead, ...running], items);
    this.segments.push(segment);
    this.open = segment;
  }

  private appendTo(open: StreamSegment, items: Pending[]): Promise<void> {
    return this.messages.append(open, items);
  }

  private async stop(segment: StreamSegment, extra: string): Promise<void> {
    if (this.open === segment) this.open = null;
    await this.messages.stop(segment, extra);
  }

  /** What did not stream after a failure is posted as ordinary messages (P7: split, in order). */
  private async postRest(): Promise<void> {
    const rest = this.streamed.slice(this.shown);
    this.shown = this.streamed.length;
    await this.messages.post(rest);
  }
}
