import { KeyedSerialQueue } from '../../core/outbox/keyed-serial-queue';
import type { AttachmentFetcher } from '../../core/ports/attachment-fetcher';
import type {
  ChatPlatform,
  NoteCard,
  OutboundMessage,
  ReplyStream,
  ReplyStreamOpening,
  StoredPost,
  ThreadId,
} from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import { silentLogger } from '../../core/ports/logger';
import type { DeliverOptions, Outbox } from '../../core/ports/outbox';
import type { TurnSession, TurnSessionOpening } from '../../core/ports/turn-session';
import { splitMessage } from '../../core/text/split-message';
import { cardContent, SLACK_LIMITS, type SlackContent } from './outbound/slack-cards';
import { agentTextOf, mentionableIn, nicknamesToMention } from './outbound/slack-mentionable';
import { agentTextToMrkdwn, escapeMrkdwn, type SlackMemberRef } from './outbound/slack-mrkdwn';
import { asArgs, identity } from './outbound/slack-post-args';
import type { SlackCall } from './outbound/slack-sender';
import { SlackThreadLinks } from './outbound/slack-thread-links';
import { decodeSlackThreadId, encodeSlackThreadId, type SlackThreadParts } from './slack-thread-id';
import { SlackAgentSessions } from './stream/slack-agent-sessions';
import { SlackReplyStream } from './stream/slack-reply-stream';
import { DEFAULT_SLACK_STREAM, type SlackStreamSettings } from './stream/slack-stream-options';

/** Sends one Web API call through the outbox (P7) and returns Slack's ts of the message. */
export type SlackDeliver = (
  target: { workspaceId: string | null; lane: string },
  call: SlackCall,
  args: Record<string, unknown>,
  options?: DeliverOptions,
) => Promise<string | null>;

export interface SlackPlatformOptions {
  deliver: SlackDeliver;
  /** P7, T2: calls stored in the caller's transaction (`Outbox.deliverStored`); absent, `deliver` each. */
  deliverStored?: Outbox['deliverStored'];
  /** P1: the workspace that owns the channel, with its members of `nicknames` (M11); null when unbound. */
  channelOwner: (
    channel: string,
    nicknames?: readonly string[],
  ) => Promise<{ workspaceId: string; members: readonly SlackMemberRef[] } | null>;
  /** Room kept under Slack's 40,000 characters for a reply part (tests use less). */
  replyPartLimit?: number;
  /**
   * N3: the permalink of a message (`chat.getPermalink`), or null when Slack has none for it
   * (deleted, channel gone, a failure): the note badge then names the source as plain text.
   */
  permalink?: (channel: string, messageTs: string) => Promise<string | null>;
  /** P14: the team of the bot token (a channel stream's `recipient_team_id`); without it, replies are posted, not streamed. */
  teamId?: string;
  /**
   * A2, P14: the team of the workspace a channel is bound to (one token may serve several teams,
   * an org-wide install), named in its streams; absent or null, `teamId`.
   */
  teamOfChannel?: (channel: string) => Promise<string | null>;
  /** P14: when a streamed message is continued in a new one, and how often appends go out. */
  stream?: Partial<SlackStreamSettings>;
  logger?: Logger;
  /** P13: downloads files attached to people's messages (`url_private` with the bot token). */
  attachments?: AttachmentFetcher;
}

/**
 * The Slack side of the chat platform port: translates the core's posts into Web API calls
 * and holds no rules. P2: every post is in its thread, an agent's under its own name and
 * avatar (`chat:write.customize`); P9: cards are Block Kit edited in place.
 */
export class SlackPlatform implements ChatPlatform {
  readonly platform = 'slack' as const;
  private readonly partLimit: number;
  private readonly streamSettings: SlackStreamSettings;
  /** P7: a thread's posts, edits and private notes leave in the order the core made them. */
  private readonly threads = new KeyedSerialQueue();
  private readonly permalinks: SlackThreadLinks;
  readonly attachments: AttachmentFetcher | undefined;
  /** P15: each thread's agent session, following its turns (`agents.sessions.setStatus`). */
  private readonly sessions: SlackAgentSessions;

  constructor(private readonly options: SlackPlatformOptions) {
    this.partLimit = options.replyPartLimit ?? SLACK_LIMITS.text - 1_000;
    this.streamSettings = Object.assign({}, DEFAULT_SLACK_STREAM, options.stream);
    this.attachments = options.attachments;
    this.permalinks = new SlackThreadLinks(options.permalink);
    this.sessions = new SlackAgentSessions(
      (thread, args, options) =>
        this.threads.run(thread, async () => {
          const parts = this.parts(thread);
          const owner = await this.options.channelOwner(parts.channel);
          await this.options.deliver(
            { workspaceId: owner?.workspaceId ?? null, lane: thread },
            'agents.sessions.setStatus',
            { channel_id: parts.channel, thread_ts: parts.threadTs, ...args },
            options,
          );
        }),
      (options.logger ?? silentLogger).child({ component: 'slack-session' }),
    );
  }

  /** P15: the thread's agent session shows the turn working, waiting, then closed. */
  turnSession(thread: ThreadId, opening: TurnSessionOpening): TurnSession {
    return this.sessions.open(thread, opening);
  }

  /** P15, T2: the session of a thread whose turn no process holds: parked or over. */
  settleTurnSession(thread: ThreadId, status: 'suspended' | 'closed'): Promise<void> {
    return this.sessions.settle(thread, status);
  }

  /** P15: Slack stopped the thread's session while no turn of this process runs in it: closed. */
  closeSession(thread: ThreadId): Promise<void> {
    return this.sessions.close(thread);
  }

  /** A long reply goes out as several messages, in order; the ref is the first one's ts. */
  post(thread: ThreadId, message: OutboundMessage, options?: DeliverOptions): Promise<string> {
    return this.threads.run(thread, () => this.postNow(thread, message, undefined, options));
  }

  /** P7, T2: the posts' calls stored with what the caller records (a turn's reply and its message). */
  postStored(thread: ThreadId, message: OutboundMessage, stored: StoredPost): Promise<string> {
    return this.threads.run(thread, () => this.postNow(thread, message, stored));
  }

  update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    return this.threads.run(thread, () => this.updateNow(thread, messageRef, message));
  }

  tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    return this.threads.run(thread, () => this.tellNow(thread, platformUserId, text));
  }

  /**
   * P14: the reply streams into the thread under the agent's name (`chat.startStream` …), each
   * call through the outbox in the thread's order. Without the team id there is no stream.
   */
  streamReply(thread: ThreadId, opening: ReplyStreamOpening): ReplyStream {
    const parts = this.parts(thread);
    // T3: the turn names its workspace and people; else the channel's owner, looked up once.
    let owner: Promise<{ workspaceId: string } | null> | undefined =
      opening.known && Promise.resolve(opening.known);
    const ownerOf = () => (owner ??= this.options.channelOwner(parts.channel));
    return new SlackReplyStream({
      parts,
      opening,
      teamId: async () => (await this.options.teamOfChannel?.(parts.channel)) ?? this.options.teamId ?? '',
      call: (call, args) =>
        this.threads.run(thread, async () => {
          if (this.options.teamId === undefined) throw new Error('no team id: the reply is not streamed');
          const found = await ownerOf();
          return this.options.deliver({ workspaceId: found?.workspaceId ?? null, lane: thread }, call, args);
        }),
      members: mentionableIn(this.options.channelOwner, parts.channel, opening.known?.members),
      partLimit: this.partLimit,
      settings: this.streamSettings,
      logger: (this.options.logger ?? silentLogger).child({ component: 'slack-stream', thread }),
    });
  }

  /**
   * N4, M23: a new conversation an agent started: a top-level message in the channel; its ts
   * is the new thread's. Parts of a long first message follow inside that thread.
   */
  startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    return this.threads.run(`slack:${channelId}:new-threads`, async () => {
      const owner = await this.options.channelOwner(channelId, nicknamesToMention(message));
      const [first, ...rest] = await this.render(message, owner?.members ?? [], this.partLimit);
      if (first === undefined) throw new Error('A thread cannot start with an empty message.');
      const args = (content: SlackContent) => ({
        channel: channelId,
        ...identity(message.as),
        ...asArgs(content),
        unfurl_links: false,
        unfurl_media: false,
      });
      const ts = await this.options.deliver(
        { workspaceId: owner?.workspaceId ?? null, lane: `slack:${channelId}:new-threads` },
        'chat.postMessage',
        args(first),
      );
      if (ts === null) throw new Error(`Slack returned no ts for a new thread in ${channelId}.`);
      const thread = encodeSlackThreadId({ channel: channelId, threadTs: ts });
      for (const content of rest)
        await this.options.deliver(
          { workspaceId: owner?.workspaceId ?? null, lane: thread },
          'chat.postMessage',
          {
            ...args(content),
            thread_ts: ts,
          },
        );
      return { thread, messageRef: ts };
    });
  }

  private async postNow(
    thread: ThreadId,
    message: OutboundMessage,
    stored?: StoredPost,
    sign?: DeliverOptions,
  ): Promise<string> {
    const parts = this.parts(thread);
    // T3: a stored post names its workspace and members: no lookup of the channel's owner.
    const owner = stored ?? (await this.options.channelOwner(parts.channel, nicknamesToMention(message)));
    const target = { workspaceId: owner?.workspaceId ?? null, lane: thread };
    const members = stored
      ? await mentionableIn(this.options.channelOwner, parts.channel, stored.members)(agentTextOf(message))
      : (owner?.members ?? []);
    const contents = await this.render(message, members, this.partLimit);
    const calls = contents.map((content) => ({
      kind: 'chat.postMessage' as const,
      payload: {
        channel: parts.channel,
        thread_ts: parts.threadTs,
        ...identity(message.as),
        ...asArgs(content),
        unfurl_links: false,
        unfurl_media: false,
      },
    }));
    const { deliverStored } = this.options;
    let refs: (string | null)[] = [];
    if (stored !== undefined && deliverStored !== undefined) {
      const lane = { workspaceId: stored.workspaceId, lane: thread };
      refs = await deliverStored(lane, calls, stored.store, stored.recordSent);
    } else {
      await stored?.store(async () => {});
      for (const { kind, payload } of calls)
        refs.push(await this.options.deliver(target, kind, payload, sign));
    }
    const first = refs[0] ?? null;
    if (first === null) throw new Error(`Slack returned no ts for a post in ${thread}.`);
    return first;
  }

  /** P9, N7, G4: `chat.update` of the message; its limit on text is stricter (4,000). */
  private async updateNow(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const parts = this.parts(thread);
    const owner = await this.options.channelOwner(parts.channel, nicknamesToMention(message));
    const [content] = await this.render(message, owner?.members ?? [], SLACK_LIMITS.updateText - 100);
    if (content === undefined) return;
    await this.options.deliver({ workspaceId: owner?.workspaceId ?? null, lane: thread }, 'chat.update', {
      channel: parts.channel,
      ts: messageRef,
      ...asArgs(content),
    });
  }

  /** Ephemeral: only that person sees it, in the thread. */
  private async tellNow(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    const parts = this.parts(thread);
    const owner = await this.options.channelOwner(parts.channel);
    await this.options.deliver(
      { workspaceId: owner?.workspaceId ?? null, lane: thread },
      'chat.postEphemeral',
      {
        channel: parts.channel,
        user: platformUserId,
        thread_ts: parts.threadTs,
        text: escapeMrkdwn(text),
      },
    );
  }

  /** N3: the source thread's permalink when the note's source is a Slack thread that Slack still knows. */
  private sourceLink(card: NoteCard): Promise<string | null> {
    const thread = card.source?.thread ?? null;
    return thread === null ? Promise.resolve(null) : this.threadLink(thread);
  }

  /** N3: a thread's permalink (`chat.getPermalink` of its first message), while Slack knows it. */
  threadLink(thread: ThreadId): Promise<string | null> {
    return this.permalinks.of(thread);
  }

  private parts(thread: ThreadId): SlackThreadParts {
    const parts = decodeSlackThreadId(thread);
    if (parts === null) throw new RangeError(`Not a Slack thread id: ${thread}.`);
    return parts;
  }

  private async render(
    message: OutboundMessage,
    members: readonly SlackMemberRef[],
    limit: number,
  ): Promise<SlackContent[]> {
    const { content } = message;
    if (content.kind === 'note') return [cardContent(content, await this.sourceLink(content.card))];
    if (content.kind !== 'text') return [cardContent(content)];
    // M11 is for agents' replies; a system message names nobody to notify.
    const mrkdwn = agentTextToMrkdwn(content.text, message.as.kind === 'agent' ? members : []);
    return splitMessage(mrkdwn, limit).map((text) => ({ text }));
  }
}
