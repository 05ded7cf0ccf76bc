import { maskCode } from '../../core/mentions';
import type { InboxRecord } from '../../core/model/inbox';
import type { ChatDirectory, PlatformMember } from '../../core/ports/chat-directory';
import type { ChatEngine } from '../../core/ports/chat-engine';
import type { GitHubAccountLinks } from '../../core/ports/github-account-links';
import type { GitHubIssues } from '../../core/ports/github-issues';
import type { InboxDecision, InboxDecoder } from '../../core/ports/inbox-decoder';
import type { Logger } from '../../core/ports/logger';
import type { GitHubComment } from './github-comment';
import type { WritePermissions } from './github-permissions';
import type { GitHubPlatform } from './github-platform';
import { questionOf } from './github-render';

/** P20: what an unknown login is told, once per repository and login. */
export const HOW_TO_LINK =
  'Summon does not know your GitHub login yet, so nothing ran. Ask a Summon admin for a one-time code (`summon members invite <nickname>`) and comment `/summon link-account <code>` here, or to add `github: <your login>` to your member entry in the workspace file (then `summon apply`).';

/** P20: what `/summon link-account` without a code is answered with. */
export const LINK_USAGE = 'Usage: `/summon link-account <code>`, with the code a Summon admin gave you.';

/** P20: what a linked member without write permission is told, once per repository and login. */
export const noWriteAccess = (repo: string, permission: string): string =>
  `Nothing ran: starting an agent here needs write permission on ${repo}, and GitHub says yours is \`${permission}\`. A repository admin can give you write access.`;

const ANSWER = /^\/answer\s+([\s\S]+)$/;
const LINK_ACCOUNT = /^\/summon\s+link-account(?:\s+(\S+))?\s*$/i;
/** M6: a person's mention token, outside code (M16 for people too). */
const MENTION = /(^|[^\w@])@\w/;

export interface GitHubInboxDecoderDeps {
  platform: GitHubPlatform;
  rest: GitHubIssues;
  permissions: WritePermissions;
  engine: ChatEngine;
  /** P20: `/summon link-account <code>` as a comment. */
  accounts: GitHubAccountLinks;
  logger: Logger;
  now: () => Date;
}

/**
 * T4, P19, P20: a stored GitHub comment read back in the routing transaction. A repository no
 * space binds is ignored (one log line per repository); a login no member has is told once how
 * to link, when the comment summons someone; a member needs write permission on the repository
 * (asked of GitHub); `/answer …` answers the thread's open question card (N13); anything else
 * is routed as the member's message (M1–M13 in the core).
 */
export class GitHubInboxDecoder implements InboxDecoder {
  /** Told once per process: unbound repositories logged, people answered. */
  private readonly told = new Set<string>();

  constructor(private readonly deps: GitHubInboxDecoderDeps) {}

  async decode(record: InboxRecord, directory: ChatDirectory): Promise<InboxDecision> {
    const comment = record.payload as GitHubComment;
    const owner = await directory.repoWorkspace(comment.repo, comment.login);
    if (owner === null) {
      if (this.once(`repo ${comment.repo}`))
        this.deps.logger.info({ repo: comment.repo }, 'a GitHub repository no space binds is ignored');
      return { kind: 'drop', reason: 'repository not bound to a space' };
    }
    // P20: linking comes before membership (it is how a login becomes a member's) and starts no turn.
    const link = LINK_ACCOUNT.exec(comment.text.trim());
    if (link !== null)
      return {
        kind: 'drop',
        reason: 'linking an account',
        afterCommit: () => this.linkAccount(comment, link[1]),
      };
    const member = memberOf(owner.members, comment.login);
    if (member === null) {
      if (!MENTION.test(maskCode(comment.text, { chatFences: true })) && !ANSWER.test(comment.text.trim()))
        return { kind: 'drop', reason: 'not a member' };
      return this.dropTelling(comment, `link ${comment.repo} ${comment.login}`, HOW_TO_LINK, 'not a member');
    }
    const access = await this.deps.permissions.canWrite(comment.repo, comment.login);
    if (!access.write) {
      const key = `write ${comment.repo} ${comment.login}`;
      return this.dropTelling(
        comment,
        key,
        noWriteAccess(comment.repo, access.permission),
        'no write permission',
      );
    }
    const actor = { platform: 'github' as const, workspace: { slug: owner.slug }, senderId: comment.login };
    const answer = ANSWER.exec(comment.text.trim())?.[1];
    if (answer !== undefined) {
      return {
        kind: 'drop',
        reason: 'an answer',
        afterCommit: () => this.answer(comment, answer.trim(), actor),
      };
    }
    return {
      kind: 'route',
      message: {
        platform: 'github',
        eventId: record.eventId,
        workspace: { slug: owner.slug },
        channelId: comment.repo,
        thread: comment.thread,
        topLevel: comment.topLevel,
        messageRef: comment.messageRef,
        senderId: comment.login,
        text: comment.text,
        receivedAt: record.receivedAt,
      },
    };
  }

  /** N13: the newest open question card of the thread takes the answer, if the person may give it. */
  private async answer(
    comment: GitHubComment,
    answer: string,
    actor: { platform: 'github'; workspace: { slug: string }; senderId: string },
  ): Promise<void> {
    const comments = await this.deps.rest.recentComments(comment.repo, comment.number);
    const questionId = comments
      .map((c) => questionOf(c.body))
      .filter((id) => id !== null)
      .at(-1);
    const result =
      questionId === undefined
        ? { ok: false as const, reason: 'There is no open question in this thread to answer.' }
        : await this.deps.engine.act({ kind: 'answer', questionId, answer }, actor);
    if (!result.ok) await this.tell(comment, result.reason);
  }

  /** P20: one comment answers: linked, or what is wrong with the code. */
  private async linkAccount(comment: GitHubComment, code: string | undefined): Promise<void> {
    let answer = LINK_USAGE;
    if (code !== undefined) {
      try {
        answer = await this.deps.accounts.link({
          repo: comment.repo,
          login: comment.login,
          code,
          now: this.deps.now(),
        });
      } catch (error) {
        this.deps.logger.warn({ err: String(error), thread: comment.thread }, 'a GitHub account link failed');
        answer =
          'The code could not be checked just now; comment `/summon link-account <code>` again in a minute.';
      }
    }
    this.deps.logger.info(
      { repo: comment.repo, login: comment.login, answer },
      'GitHub link-account answered',
    );
    await this.tell(comment, answer);
  }

  private dropTelling(comment: GitHubComment, key: string, text: string, reason: string): InboxDecision {
    if (!this.once(key)) return { kind: 'drop', reason };
    return { kind: 'drop', reason, afterCommit: () => this.tell(comment, text) };
  }

  private async tell(comment: GitHubComment, text: string): Promise<void> {
    try {
      await this.deps.platform.tellPrivately(comment.thread, comment.login, text);
    } catch (error) {
      this.deps.logger.warn(
        { err: String(error), thread: comment.thread },
        'a GitHub answer could not be posted',
      );
    }
  }

  private once(key: string): boolean {
    if (this.told.has(key)) return false;
    this.told.add(key);
    return true;
  }
}

const memberOf = (members: readonly PlatformMember[], login: string): PlatformMember | null =>
  members.find((m) => m.userId !== null && m.userId.toLowerCase() === login.toLowerCase()) ?? null;
