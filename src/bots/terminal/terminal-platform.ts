import type { Writable } from 'node:stream';
import { ValidationError } from '../../core/errors';
import type { ChatPlatform, OutboundMessage, ThreadId } from '../../core/ports/chat-platform';
import { renderMessageUpdate } from './terminal-cards';
import { DEFAULT_TERMINAL_IDENTITY, type TerminalIdentity } from './terminal-identity';
import { renderEntry, renderPrivate, TerminalScreen, threadLabel } from './terminal-screen';
import { TerminalThreads } from './terminal-threads';

export interface TerminalPlatformOptions {
  /** Where the screen is printed (process.stdout, or a PassThrough in tests). */
  output: Writable;
  /** When messages arrive; injected so tests are deterministic. */
  now: () => Date;
  /** Defaults to workspace `default`, channel `general`, person `you`. */
  identity?: TerminalIdentity;
  /** Set by `summon chat` so each session's thread ids are new to the core; tests leave it out. */
  session?: string;
}

/**
 * The terminal's side of the chat platform port: it prints what the core posts and keeps
 * each thread's messages so an edit can be redrawn. It holds no rules (bolt-js: the transport
 * translates). P10 holds by construction: posts are printed, never read back as input.
 */
export class TerminalPlatform implements ChatPlatform {
  readonly platform = 'terminal' as const;
  readonly identity: TerminalIdentity;
  readonly threads: TerminalThreads;
  readonly screen: TerminalScreen;
  private readonly now: () => Date;

  constructor(options: TerminalPlatformOptions) {
    this.identity = options.identity ?? DEFAULT_TERMINAL_IDENTITY;
    this.now = options.now;
    this.threads = new TerminalThreads(this.identity.channel, options.session);
    this.screen = new TerminalScreen(options.output);
  }

  /** P2: printed in its thread under the agent's name; the ref is the terminal's `m<k>`. */
  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    const number = this.threads.numberOf(thread);
    const entry = this.threads.addPosted(number, this.localSource(message), this.now());
    this.screen.print(renderEntry(number, entry));
    return entry.ref;
  }

  /** P9, N7, G4: the message is replaced in the model; the screen prints one `↻` redraw. */
  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const number = this.threads.numberOf(thread);
    const { previous, next } = this.threads.replace(
      number,
      messageRef,
      this.localSource(message),
      this.now(),
    );
    this.screen.print(
      renderMessageUpdate(threadLabel(number), previous.message, next.message, next.cardNumber),
    );
  }

  /** N4, M23: an agent's tool starts a new thread of this channel; `message` is its first entry. */
  async startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    if (channelId !== this.identity.channel) {
      throw new ValidationError(`"${channelId}" is not this terminal's channel (#${this.identity.channel}).`);
    }
    const thread = this.threads.start(this.now());
    const messageRef = await this.post(thread.id, message);
    return { thread: thread.id, messageRef };
  }

  /** Printed, marked `(only you)`; it is not a message of the thread. */
  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    const number = this.threads.numberOf(thread);
    const recipient = platformUserId === this.identity.user ? 'you' : platformUserId;
    this.screen.print(renderPrivate(number, recipient, text));
  }

  /** P9, T2: a dead run's card, read back from the screen's model of the thread. */
  async findRunCard(thread: ThreadId, runId: string): Promise<string | null> {
    return this.threads.runCard(this.threads.numberOf(thread), runId);
  }

  /** N3: a note's source links only to a thread of this screen; another session's is plain text. */
  private localSource(message: OutboundMessage): OutboundMessage {
    const { content } = message;
    const thread = content.kind === 'note' ? (content.card.source?.thread ?? null) : null;
    if (content.kind !== 'note' || content.card.source === undefined || thread === null) return message;
    try {
      this.threads.numberOf(thread);
      return message;
    } catch {
      return {
        ...message,
        content: { ...content, card: { ...content.card, source: { ...content.card.source, thread: null } } },
      };
    }
  }
}
