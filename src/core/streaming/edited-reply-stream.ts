import type { ChatPlatform, OutboundMessage, ReplyStream, Speaker, ThreadId } from '../ports/chat-platform';
import { type Clock, systemClock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import { replyTail } from './reply-tail';

export interface EditedReplyStreamOptions {
  /** Posts and edits go through the platform's own post and update (its lanes and outbox, P7). */
  platform: Pick<ChatPlatform, 'post' | 'update'>;
  thread: ThreadId;
  as: Speaker;
  /** P7: the platform's split of a reply into messages (fences closed and reopened at a cut). */
  split: (text: string) => string[];
  /** Edits are coalesced to one per interval (the platform's rate limit). */
  intervalMs: number;
  logger: Logger;
  /** The time edits are coalesced on; the system's unless given. */
  clock?: Clock;
}

/**
 * P14 where a platform has no streaming of its own (Discord): the reply is posted once its
 * first words arrive and edited in place as it grows, at most one write per interval. A reply
 * past the message limit goes on in a new message (P7: `split`, so a cut never breaks a fence);
 * earlier messages are only edited when their part changed. At the end the messages show the
 * final reply exactly.
 */
export class EditedReplyStream implements ReplyStream {
  readonly showsSteps = false;
  private text = '';
  private readonly posted: { ref: string; content: string }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private lastWriteAt = 0;
  private ended = false;
  private readonly clock: Clock;

  constructor(private readonly options: EditedReplyStreamOptions) {
    this.clock = options.clock ?? systemClock;
  }

  append(delta: string): void {
    if (this.ended) return;
    this.text += delta;
    this.schedule();
  }

  step(): void {
    // The card shows the calls on this platform.
  }

  async finish(reply: string): Promise<string | null> {
    this.stopTimer();
    await this.writing;
    if (this.posted.length === 0) {
      // Nothing was shown yet: the caller posts the reply whole, as it always did.
      this.ended = true;
      return null;
    }
    // The messages end showing the reply exactly, the agent's words between tool calls edited
    // away, unless those took more messages than the reply has parts (there is no delete).
    this.text =
      this.options.split(reply).length >= this.posted.length
        ? reply
        : this.text + replyTail(this.text, reply);
    await this.write();
    this.ended = true;
    return this.posted[0]?.ref ?? null;
  }

  async abandon(): Promise<void> {
    this.stopTimer();
    await this.writing;
    if (this.posted.length > 0) await this.write();
    this.ended = true;
  }

  private stopTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null || this.ended) return;
    const wait = Math.max(0, this.lastWriteAt + this.options.intervalMs - this.clock.now().getTime());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.writing.then(() => this.write());
    }, wait);
    this.timer.unref();
  }

  /** Brings the thread's messages to the text so far: changed parts edited, new parts posted, in order. */
  private async write(): Promise<void> {
    this.lastWriteAt = this.clock.now().getTime();
    const { platform, thread, split, logger } = this.options;
    if (this.text.trim() === '') return;
    const parts = split(this.text);
    for (const [index, content] of parts.entries()) {
      const shown = this.posted[index];
      try {
        if (shown === undefined) {
          const ref = await platform.post(thread, this.message(content));
          this.posted.push({ ref, content });
        } else if (shown.content !== content) {
          await platform.update(thread, shown.ref, this.message(content));
          shown.content = content;
        }
      } catch (error) {
        // The next write (or the final one) brings this part up to date again.
        logger.warn({ err: error, part: index }, 'a streamed reply write failed');
        return;
      }
    }
  }

  private message(text: string): OutboundMessage {
    return { as: this.options.as, content: { kind: 'text', text } };
  }
}
