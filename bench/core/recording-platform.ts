import type { ChatPlatform, OutboundMessage, ThreadId } from '../../src/core/ports/chat-platform';
import { Waiters } from './waiters';

/**
 * The chat platform port for the benchmark: remembers which refs it handed out in which
 * thread, and ends a thread's round trip when the expected agent posts text there (the reply).
 * A system text (a failed turn, a refusal) fails the round trip with that text. Edits and
 * private messages do nothing but are checked; a bad call is kept in `problems` and thrown.
 */
export class RecordingPlatform implements ChatPlatform {
  readonly platform = 'terminal' as const;
  readonly problems: string[] = [];
  readonly counts = { posts: 0, replies: 0, updates: 0, privateMessages: 0, approvalCards: 0 };
  /** The approval ids of the approval cards posted, in order. */
  readonly approvalIds: string[] = [];
  private readonly refsByThread = new Map<ThreadId, Set<string>>();
  private readonly replies: Waiters;
  private nextRef = 0;

  constructor(
    private readonly agentName: string,
    timeoutMs: number,
  ) {
    this.replies = new Waiters(timeoutMs);
  }

  /** Resolves with the time the agent's reply was posted in `thread`. */
  expectReply(thread: ThreadId): Promise<bigint> {
    return this.replies.expect(thread);
  }

  abandon(thread: ThreadId, error: Error): void {
    this.replies.fail(thread, error);
  }

  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    const at = process.hrtime.bigint();
    this.check(thread !== '', 'post into an empty thread id');
    this.checkMessage(message);
    this.counts.posts += 1;
    const ref = `r${++this.nextRef}`;
    const refs = this.refsByThread.get(thread) ?? new Set<string>();
    refs.add(ref);
    this.refsByThread.set(thread, refs);
    if (message.content.kind === 'approval') {
      this.counts.approvalCards += 1;
      this.approvalIds.push(message.content.card.approvalId);
    }
    if (message.content.kind === 'text') {
      if (message.as.kind === 'agent' && message.as.name === this.agentName) {
        this.counts.replies += 1;
        this.replies.settle(thread, at);
      } else if (message.as.kind === 'system') {
        this.replies.fail(thread, new Error(`system message in ${thread}: ${message.content.text}`));
      }
    }
    return ref;
  }

  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    this.counts.updates += 1;
    this.check(
      this.refsByThread.get(thread)?.has(messageRef) === true,
      `update of ${messageRef}, never posted in ${thread}`,
    );
    this.checkMessage(message);
  }

  /** A new thread: `<channel>/t<n>`, its first message posted like any other. */
  async startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    this.check(channelId !== '', 'new thread in an empty channel id');
    const thread = `${channelId}/t${++this.nextRef}`;
    return { thread, messageRef: await this.post(thread, message) };
  }

  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    this.counts.privateMessages += 1;
    this.check(thread !== '' && platformUserId !== '', 'private message without a thread or person');
    this.check(text.trim() !== '', `empty private message in ${thread}`);
  }

  private checkMessage(message: OutboundMessage): void {
    if (message.as.kind === 'agent') this.check(message.as.name !== '', 'message from an unnamed agent');
    if (message.content.kind === 'text') this.check(message.content.text.trim() !== '', 'empty text');
    if (message.content.kind === 'status')
      this.check(message.content.card.agent !== '', 'card without agent');
  }

  private check(ok: boolean, problem: string): void {
    if (ok) return;
    this.problems.push(problem);
    throw new Error(`RecordingPlatform: ${problem}`);
  }
}
