import type {
  ChatPlatform,
  OutboundMessage,
  ReplyStream,
  ReplyStreamOpening,
  StoredPost,
  ThreadId,
} from '../../core/ports/chat-platform';
import type { Logger } from '../../core/ports/logger';
import type { Outbox } from '../../core/ports/outbox';
import { EditedReplyStream } from '../../core/streaming/edited-reply-stream';
import { commentBodies, privateBody, splitForGitHub } from './github-render';
import type { GitHubCall } from './github-sender';
import { decodeGitHubThreadId, encodeGitHubThreadId, type GitHubThreadParts } from './github-thread-id';

export interface GitHubPlatformOptions {
  /** P7: every comment posted or edited is stored, then sent (retried, in order, never twice). */
  outbox: Outbox;
  /** P7: the workspace a repository's calls are stored under; null for a repository no space binds. */
  workspaceOf: (repo: string) => Promise<string | null>;
  logger: Logger;
  /** P14: a streamed reply's comment is edited at most once per this many ms; default 1,000. */
  streamEditIntervalMs?: number;
}

/** An issue's title from the first line of what starts it (GitHub's limit is 256). */
const titleOf = (body: string): string => {
  const first = body.split('\n').find((line) => line.trim() !== '') ?? 'Summon';
  return first.length > 120 ? `${first.slice(0, 119)}…` : first;
};

/**
 * P19: GitHub as a chat platform. A thread is an issue or a pull request (its comments) or a
 * pull request's review thread (replies to its first comment); a message is a comment headed
 * with the agent's name and avatar. Message refs: `c{id}` an issue comment, `r{id}` a review
 * comment, `i{number}` the body of an issue Summon opened (N4).
 */
export class GitHubPlatform implements ChatPlatform {
  readonly platform = 'github' as const;

  constructor(private readonly options: GitHubPlatformOptions) {}

  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    const parts = partsOf(thread);
    const target = { workspaceId: await this.options.workspaceOf(parts.repo), lane: thread };
    const refs: string[] = [];
    for (const body of commentBodies(message))
      refs.push(await this.deliver(target, commentCall(parts, body)));
    const [first] = refs;
    if (first === undefined) throw new Error('A message with nothing to post.');
    return first;
  }

  /** P7, T2: the reply's comments stored in the caller's transaction, sent once it commits. */
  async postStored(thread: ThreadId, message: OutboundMessage, stored: StoredPost): Promise<string> {
    const { outbox } = this.options;
    if (outbox.deliverStored === undefined) return this.post(thread, message);
    const parts = partsOf(thread);
    const calls = commentBodies(message).map((body) => commentCall(parts, body));
    const [first] = await outbox.deliverStored(
      { workspaceId: stored.workspaceId, lane: thread },
      calls,
      stored.store,
      stored.recordSent,
    );
    if (first == null) throw new Error('GitHub returned no comment.');
    return first;
  }

  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const parts = partsOf(thread);
    // A card is one body; an edited text keeps to one comment (P14 continues long replies in new ones).
    const [body = ''] = commentBodies(message);
    const [, kind, id] = /^([cri])([1-9][0-9]{0,15})$/.exec(messageRef) ?? [];
    const { repo } = parts;
    const call: GitHubCall | null =
      kind === 'c'
        ? { kind: 'comment.update', payload: { repo, id: Number(id), body } }
        : kind === 'r'
          ? { kind: 'review.update', payload: { repo, id: Number(id), body } }
          : kind === 'i' && Number(id) === parts.number
            ? { kind: 'issue.update', payload: { repo, number: parts.number, body } }
            : null;
    if (call === null) throw new Error(`${messageRef} is not a message Summon posted in ${thread}.`);
    await this.deliver({ workspaceId: await this.options.workspaceOf(repo), lane: thread }, call);
  }

  /** N4: a new thread of a repository is a new issue, the message its body. */
  async startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    const [body = ''] = commentBodies(message);
    const content = message.content;
    const title = titleOf(content.kind === 'text' ? content.text : body.split('\n').slice(2).join('\n'));
    const target = {
      workspaceId: await this.options.workspaceOf(channelId),
      lane: `github:${channelId}:new-issues`,
    };
    const ref = await this.deliver(target, {
      kind: 'issue.create',
      payload: { repo: channelId, title, body },
    });
    const number = Number(ref.slice(1));
    return {
      thread: encodeGitHubThreadId({ repo: channelId, number, reviewComment: null }),
      messageRef: `i${number}`,
    };
  }

  /** GitHub has no private messages: the person is told in the thread, by their login. */
  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    const parts = partsOf(thread);
    await this.deliver(
      { workspaceId: await this.options.workspaceOf(parts.repo), lane: thread },
      commentCall(parts, privateBody(platformUserId, text)),
    );
  }

  /** P14: the reply comment is posted once its first words arrive, then edited as it grows. */
  streamReply(thread: ThreadId, opening: ReplyStreamOpening): ReplyStream {
    return new EditedReplyStream({
      platform: this,
      thread,
      as: opening.as,
      split: splitForGitHub,
      intervalMs: this.options.streamEditIntervalMs ?? 1_000,
      logger: this.options.logger.child({ component: 'github-stream' }),
    });
  }

  private async deliver(
    target: { workspaceId: string | null; lane: string },
    call: GitHubCall,
  ): Promise<string> {
    const ref = await this.options.outbox.deliver(target, call.kind, call.payload);
    if (ref === null) throw new Error('GitHub returned no comment.');
    return ref;
  }
}

/** A comment in the thread: on the issue or pull request, or a reply in its review thread. */
function commentCall(parts: GitHubThreadParts, body: string): GitHubCall {
  const { repo, number, reviewComment } = parts;
  return reviewComment === null
    ? { kind: 'comment.create', payload: { repo, number, body } }
    : { kind: 'review.reply', payload: { repo, pull: number, commentId: reviewComment, body } };
}

function partsOf(thread: ThreadId): GitHubThreadParts {
  const parts = decodeGitHubThreadId(thread);
  if (parts === null) throw new Error(`${thread} is not a GitHub thread.`);
  return parts;
}
