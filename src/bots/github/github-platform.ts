import type {
  ChatPlatform,
  OutboundMessage,
  ReplyStream,
  ReplyStreamOpening,
  ThreadId,
} from '../../core/ports/chat-platform';
import type { GitHubIssues } from '../../core/ports/github-issues';
import type { Logger } from '../../core/ports/logger';
import { EditedReplyStream } from '../../core/streaming/edited-reply-stream';
import { commentBodies, privateBody, splitForGitHub } from './github-render';
import { decodeGitHubThreadId, encodeGitHubThreadId, type GitHubThreadParts } from './github-thread-id';

export interface GitHubPlatformOptions {
  rest: GitHubIssues;
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
    const refs: string[] = [];
    for (const body of commentBodies(message)) refs.push(await this.comment(parts, body));
    const [first] = refs;
    if (first === undefined) throw new Error('A message with nothing to post.');
    return first;
  }

  async update(thread: ThreadId, messageRef: string, message: OutboundMessage): Promise<void> {
    const parts = partsOf(thread);
    // A card is one body; an edited text keeps to one comment (P14 continues long replies in new ones).
    const [body = ''] = commentBodies(message);
    const { rest } = this.options;
    const [, kind, id] = /^([cri])([1-9][0-9]{0,15})$/.exec(messageRef) ?? [];
    if (kind === 'c') return rest.updateIssueComment(parts.repo, Number(id), body);
    if (kind === 'r') return rest.updateReviewComment(parts.repo, Number(id), body);
    if (kind === 'i' && Number(id) === parts.number)
      return rest.updateIssueBody(parts.repo, parts.number, body);
    throw new Error(`${messageRef} is not a message Summon posted in ${thread}.`);
  }

  /** N4: a new thread of a repository is a new issue, the message its body. */
  async startThread(
    channelId: string,
    message: OutboundMessage,
  ): Promise<{ thread: ThreadId; messageRef: string }> {
    const [body = ''] = commentBodies(message);
    const content = message.content;
    const title = titleOf(content.kind === 'text' ? content.text : body.split('\n').slice(2).join('\n'));
    const number = await this.options.rest.createIssue(channelId, title, body);
    return {
      thread: encodeGitHubThreadId({ repo: channelId, number, reviewComment: null }),
      messageRef: `i${number}`,
    };
  }

  /** GitHub has no private messages: the person is told in the thread, by their login. */
  async tellPrivately(thread: ThreadId, platformUserId: string, text: string): Promise<void> {
    await this.comment(partsOf(thread), privateBody(platformUserId, text));
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

  private async comment(parts: GitHubThreadParts, body: string): Promise<string> {
    const { rest } = this.options;
    if (parts.reviewComment !== null) {
      return `r${await rest.replyToReviewComment(parts.repo, parts.number, parts.reviewComment, body)}`;
    }
    return `c${await rest.createIssueComment(parts.repo, parts.number, body)}`;
  }
}

function partsOf(thread: ThreadId): GitHubThreadParts {
  const parts = decodeGitHubThreadId(thread);
  if (parts === null) throw new Error(`${thread} is not a GitHub thread.`);
  return parts;
}
