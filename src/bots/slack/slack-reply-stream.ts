import { DeliveryError } from '../../core/outbox/delivery-error';
import type { ReplyStep, ReplyStream, ReplyStreamOpening } from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import { replyTail } from '../../core/streaming/reply-tail';
import { fenceMarkerOf, openFenceAt } from '../../core/text/open-fence';
import { splitMessage } from '../../core/text/split-message';
import { agentTextToMrkdwn, type SlackMemberRef } from './slack-mrkdwn';
import type { SlackCall } from './slack-sender';
import { cutAt, type Pending, slackErrorOf, streamChunks, textOf } from './slack-stream-chunks';
import type { SlackThreadParts } from './slack-thread-id';

/** Slack's limit on `markdown_text` (and a chunk's text) in one streaming call. */
const CALL_TEXT_LIMIT = 12_000;
/** Room kept at the end of a message to close a fence open there (`\n` and the marker). */
const FENCE_CLOSING_ROOM = 12;
/** What Slack answers for a stream it has closed (its age limit, about five minutes). */
const STREAM_OVER = 'message_not_in_streaming_state';

export interface SlackStreamSettings {
  /** P14: a streamed message is closed and the reply goes on in a new one after this long (Slack ends streams after about 5 minutes). */
  rolloverAfterMs: number;
  /** Appends are coalesced to one per interval (`chat.appendStream` is Tier 4, per workspace). */
  intervalMs: number;
}

export const DEFAULT_SLACK_STREAM: SlackStreamSettings = { rolloverAfterMs: 240_000, intervalMs: 1_000 };

export interface SlackReplyStreamOptions {
  parts: SlackThreadParts;
  opening: ReplyStreamOpening;
  /** The Slack team the bot token belongs to: a channel stream's `recipient_team_id`. */
  teamId: string;
  /** One Web API call through the outbox, in the thread's order (P7). */
  call: (call: SlackCall, args: Record<string, unknown>) => Promise<string | null>;
  /** M11: the workspace's members, for real mentions. */
  members: () => Promise<readonly SlackMemberRef[]>;
  /** The most a streamed message holds before the reply goes on in the next (P7). */
  partLimit: number;
  settings: SlackStreamSettings;
  logger: Logger;
  now?: () => number;
}

/** Ends a batch whose message is full: it is stopped once the batch is in. */
const FULL: Pending = { kind: 'text', text: '' };
/** Less room than this in the open message: the reply goes on in the next one. */
const MIN_PIECE = 40;
interface Segment {
  ts: string;
  startedAt: number;
  /** The reply's text this message shows (before mrkdwn), to know the fence open at its end. */
  text: string;
}

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
  private readonly segments: Segment[] = [];
  private open: Segment | null = null;
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
  private readonly now: () => number;

  constructor(private readonly options: SlackReplyStreamOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  append(delta: string): void {
    if (this.ended || delta === '') return;
    this.streamed += delta;
    const last = this.pending.at(-1);
    if (last?.kind === 'text') last.text += delta;
    else this.pending.push({ kind: 'text', text: delta });
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

  private schedule(): void {
    if (this.timer !== null || this.ended) return;
    const wait = Math.max(0, this.lastWriteAt + this.options.settings.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.flush(false));
    }, wait);
    this.timer.unref();
  }

  /** Sends what is pending, in order: text and steps into the open message, rolling over when due. */
  private async flush(final: boolean): Promise<void> {
    this.lastWriteAt = this.now();
    if (this.refused || this.broken || this.halted || this.pending.length === 0) return;
    const items = this.take(final);
    if (items.length === 0) return;
    const open = this.open;
    if (open !== null && this.now() - open.startedAt >= this.options.settings.rolloverAfterMs) {
      await this.stop(open, '');
    }
    for (const piece of this.pieces(items)) {
      if (!(await this.send(piece))) return;
    }
  }

  /**
   * The pending items to send now. M11: a trailing `@name` still being written is held back
   * (unless this is the end), so a mention is never cut in two.
   */
  private take(final: boolean): Pending[] {
    const items = this.pending.splice(0, this.pending.length);
    const last = items.at(-1);
    if (final || last?.kind !== 'text') return items;
    const held = /@[\w.-]*$/.exec(last.text);
    if (held === null) return items;
    const keep = last.text.slice(0, held.index);
    this.pending.push({ kind: 'text', text: last.text.slice(held.index) });
    if (keep === '') items.pop();
    else last.text = keep;
    return items;
  }

  /** Items cut so each call stays within the per-call limit and each message within the part limit. */
  private *pieces(items: Pending[]): Generator<Pending[]> {
    let batch: Pending[] = [];
    let room = this.room();
    if (room < MIN_PIECE && this.open !== null) {
      // The open message is all but full: it is stopped, the text goes on in the next.
      yield [FULL];
      room = this.room();
    }
    for (const item of items) {
      if (item.kind === 'step') {
        batch.push(item);
        continue;
      }
      let rest = item.text;
      while (rest !== '') {
        const cut = rest.length <= room ? rest.length : cutAt(rest, room);
        batch.push({ kind: 'text', text: rest.slice(0, cut) });
        rest = rest.slice(cut);
        if (rest === '') {
          room -= cut;
          break;
        }
        batch.push(FULL);
        yield batch;
        batch = [];
        // Resumed once the full message was sent and stopped: the room of the next one.
        room = this.room();
      }
    }
    if (batch.length > 0) yield batch;
  }

  /**
   * P7: what the open message (or the next one) still takes: the part limit less its text, the
   * fence line opened again at its start and the room to close a fence at its end.
   */
  private room(): number {
    const lead = this.open === null ? (this.reopening()?.length ?? -1) + 1 : 0;
    const used = this.open?.text.length ?? 0;
    const room = Math.min(CALL_TEXT_LIMIT - lead, this.options.partLimit - used - lead - FENCE_CLOSING_ROOM);
    return this.open === null ? Math.max(MIN_PIECE, room) : room;
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
    const { parts, opening, teamId } = this.options;
    const direct = parts.channel.startsWith('D');
    if (!direct && opening.recipientUserId === null) {
      // A channel stream needs the person it answers (`recipient_user_id`): none, no stream.
      throw new DeliveryError('no recipient for a channel stream', { kind: 'never' });
    }
    const reopen = this.reopening();
    // The steps still running are shown again, so their end lands on the new message.
    const running = [...this.steps.values()]
      .filter(
        (s) => s.status === 'in_progress' && !items.some((i) => i.kind === 'step' && i.step.id === s.id),
      )
      .map((step): Pending => ({ kind: 'step', step }));
    const lead: Pending[] = reopen === null ? [] : [{ kind: 'text', text: `${reopen}\n` }];
    const chunks = await streamChunks([...lead, ...running, ...items], this.options.members);
    // The message's age counts from before the call: Slack's clock starts when it gets it.
    const startedAt = this.now();
    const ts = await this.options.call('chat.startStream', {
      channel: parts.channel,
      thread_ts: parts.threadTs,
      ...(direct || opening.recipientUserId === null
        ? {}
        : { recipient_user_id: opening.recipientUserId, recipient_team_id: teamId }),
      username: opening.as.name,
      ...(opening.as.avatarUrl === null ? {} : { icon_url: opening.as.avatarUrl }),
      task_display_mode: 'timeline',
      chunks,
    });
    if (ts === null) throw new DeliveryError('Slack returned no ts for a stream', { kind: 'never' });
    const segment = {
      ts,
      startedAt,
      text: (reopen === null ? '' : `${reopen}\n`) + textOf(items),
    };
    this.segments.push(segment);
    this.open = segment;
  }

  private async appendTo(open: Segment, items: Pending[]): Promise<void> {
    if (items.length === 0) return;
    await this.options.call('chat.appendStream', {
      channel: this.options.parts.channel,
      ts: open.ts,
      chunks: await streamChunks(items, this.options.members),
    });
    open.text += textOf(items);
  }

  /** Stops a message; a fence open at its end is closed first (P7). Slack having closed it already is fine. */
  private async stop(segment: Segment, extra: string): Promise<void> {
    if (this.open === segment) this.open = null;
    const fence = openFenceAt(segment.text);
    const closing =
      fence === null ? extra : `${extra}${segment.text.endsWith('\n') ? '' : '\n'}${fenceMarkerOf(fence)}`;
    try {
      await this.options.call('chat.stopStream', {
        channel: this.options.parts.channel,
        ts: segment.ts,
        ...(closing === '' ? {} : { chunks: [{ type: 'markdown_text', text: closing }] }),
      });
    } catch (error) {
      const code = slackErrorOf(error);
      if (code !== STREAM_OVER)
        this.options.logger.warn({ err: error, ts: segment.ts }, 'stopping a reply stream failed');
    }
  }

  /** What did not stream after a failure is posted as ordinary messages (P7: split, in order). */
  private async postRest(): Promise<void> {
    const rest = this.streamed.slice(this.shown);
    this.shown = this.streamed.length;
    if (rest.trim() === '') return;
    const members = await this.options.members();
    const { parts, opening } = this.options;
    for (const text of splitMessage(agentTextToMrkdwn(rest, members), this.options.partLimit)) {
      await this.options.call('chat.postMessage', {
        channel: parts.channel,
        thread_ts: parts.threadTs,
        username: opening.as.name,
        ...(opening.as.avatarUrl === null ? {} : { icon_url: opening.as.avatarUrl }),
        text,
        unfurl_links: false,
        unfurl_media: false,
      });
    }
  }
}
