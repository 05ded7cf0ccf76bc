import type { ChatPlatform, ReplyStep, ReplyStream, ThreadId } from '../../ports/chat-platform';
import type { Logger } from '../../ports/logger';
import type { RunnerEvent } from '../../ports/runner';
import type { LiveCardFeed } from '../cards/live-card-board';
import { stepRow } from '../cards/step-row';
import { steeredRow } from '../routing/steering';
import type { SignOfLife } from './sign-of-life';
import type { StatusCardPublisher } from './status-card-publisher';
import type { TurnContext } from './turn-context';

/**
 * P9, P14: where a turn's events show. The card carries the headline and Stop; the reply
 * streams where the platform can (`ChatPlatform.streamReply`), and tool calls are steps of that
 * stream where it shows them (Slack's task chunks), else rows of the card, never both. When the
 * platform refuses to stream, the steps so far move to the card and the reply is posted whole.
 */
export class TurnReplyStream {
  private readonly stream: ReplyStream | null;
  private refused = false;
  private readonly steps = new Map<string, ReplyStep>();
  private afterTool = false;
  private wroteText = false;
  /** P14 (decision): what goes to the stream before the turn's sign of life is due, in order. */
  private readonly held: (() => void)[] = [];
  private released = true;
  private forwarded = false;
  private closing: Promise<boolean> | null = null;
  private readonly runId: string;

  constructor(
    readonly card: StatusCardPublisher,
    platform: ChatPlatform,
    thread: ThreadId,
    context: TurnContext,
    private readonly logger: Logger,
    /** P15: whether a person asked the turn to stop (a stream closed at their Stop is not continued). */
    stopAsked?: () => Promise<boolean>,
    /** P9, P14: the stream starts once it is due; a turn that ends sooner posts its reply whole. */
    sign?: SignOfLife,
    /** O5: the console's copy of the card, tool calls included wherever the platform shows them. */
    private readonly live?: LiveCardFeed,
  ) {
    const { agent } = context;
    this.runId = context.run.id;
    this.stream =
      platform.streamReply?.(thread, {
        as: { kind: 'agent', name: agent.name, avatarUrl: agent.avatarUrl },
        recipientUserId: recipientOf(context, platform.platform),
        onRefused: () => this.fallBack(),
        known: { workspaceId: context.run.workspaceId, members: context.members },
        ...(stopAsked === undefined ? {} : { stopAsked }),
      }) ?? null;
    if (sign !== undefined) {
      this.released = false;
      sign.whenDue(() => {
        this.released = true;
        for (const send of this.held.splice(0)) send();
      });
    }
  }

  /** To the stream now, or once the turn's sign of life is due. */
  private toStream(send: (stream: ReplyStream) => void): void {
    const { stream } = this;
    if (stream === null) return;
    const forward = () => {
      this.forwarded = true;
      send(stream);
    };
    if (this.released) forward();
    else this.held.push(forward);
  }

  private get stepsOnStream(): boolean {
    return this.stream !== null && !this.refused && this.stream.showsSteps;
  }

  observe(event: RunnerEvent): void {
    if (event.type === 'thinking') this.headline('Thinking…');
    // P16, N10: a message that joined the turn is shown as part of it, on the card.
    if (event.type === 'steered') this.row(steeredRow(event.from, event.text));
    // A15: the person sees that the turn's older rounds were summarized.
    if (event.type === 'compacted')
      this.row(`compacted: ${event.rounds} earlier round${event.rounds === 1 ? '' : 's'} summarized`);
    if (event.type === 'usage') {
      const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = event.usage;
      this.live?.tokens(this.runId, inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens);
    }
    if (event.type === 'tool_start') {
      this.afterTool = true;
      this.step(
        { id: event.callId, title: `${event.tool}: ${event.summary}`, status: 'in_progress' },
        'start',
      );
    }
    if (event.type === 'tool_end') {
      const started = this.steps.get(event.callId);
      this.step(
        {
          id: event.callId,
          title: started?.title ?? event.callId,
          status: event.ok ? 'complete' : 'error',
          ...(event.summary === undefined ? {} : { details: event.summary }),
        },
        'end',
      );
    }
    // P14: the answer is complete: a stream whose start is still held stays unopened, decided
    // now rather than after the turn's clean-up (a busy process may take its moment meanwhile).
    if (event.type === 'final') void this.unshown().catch(() => undefined);
    if (event.type === 'text' && event.delta !== '') {
      // The agent's words after a tool call start a new paragraph of the stream.
      const delta = this.afterTool && this.wroteText ? `\n\n${event.delta.trimStart()}` : event.delta;
      this.afterTool = false;
      this.wroteText = true;
      this.toStream((stream) => stream.append(delta));
    }
  }

  /**
   * P14, P7: the reply is complete; true when nothing of it is in the thread (nothing went to
   * the stream, or its start was still held and it closed unopened): it is posted whole.
   */
  unshown(): Promise<boolean> {
    this.closing ??= this.closeIfUnshown();
    return this.closing;
  }

  private closeIfUnshown(): Promise<boolean> {
    this.held.length = 0;
    if (!this.forwarded || this.stream === null) return Promise.resolve(true);
    return this.stream.closeIfUnshown?.() ?? Promise.resolve(false);
  }

  /** P14: the stream ends showing the reply; null when nothing was streamed (post it instead). */
  async finish(reply: string): Promise<string | null> {
    this.held.length = 0;
    if (this.stream === null) return null;
    try {
      return await this.stream.finish(reply);
    } catch (error) {
      this.logger.warn({ err: error }, 'ending the reply stream failed');
      return null;
    }
  }

  /** The turn ends without a reply: the stream closes with what it showed. */
  async abandon(): Promise<void> {
    this.held.length = 0;
    await this.stream
      ?.abandon()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'closing the reply stream failed'));
  }

  private headline(text: string): void {
    this.card.headline(text);
    this.live?.headline(this.runId, text);
  }

  private row(text: string): void {
    this.card.row(text);
    this.live?.row(this.runId, text);
  }

  /** A tool call's start or end: a step of the stream where it shows them, else a card row (never both). */
  private step(step: ReplyStep, at: 'start' | 'end'): void {
    this.steps.set(step.id, step);
    this.live?.step(this.runId, step);
    if (this.stepsOnStream) this.toStream((stream) => stream.step(step));
    else if (at === 'end') this.card.replaceLastRow(stepRow(step));
    else this.card.row(stepRow(step));
  }

  private fallBack(): void {
    if (this.refused) return;
    this.refused = true;
    if (this.stream?.showsSteps !== true) return;
    // P9: the calls shown so far as steps go on the card, one row each, in order.
    for (const step of this.steps.values()) this.card.row(stepRow(step));
  }
}

/** The platform account of the person who started the turn (Slack streams to them). */
export function recipientOf(context: TurnContext, platform: string): string | null {
  const member = context.members.find((m) => m.id === context.run.startedByMemberId);
  if (member === undefined) return null;
  if (platform === 'slack') return member.slackUserId;
  if (platform === 'discord') return member.discordUserId;
  return null;
}
