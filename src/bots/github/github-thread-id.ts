import type { ThreadId } from '../../core/ports/chat-platform';

/**
 * P19: the parts of a GitHub thread id. The channel is a repository (`owner/name`, lower-cased:
 * GitHub's names ignore case); an issue or a pull request is a conversation; a pull request's
 * review thread (a line comment and its replies) is one of its own, named by its first comment.
 */
export interface GitHubThreadParts {
  repo: string;
  /** The or pull request's number. */
  number: number;
  /** The id of a review thread's first comment; null for the or pull request's own thread. */
  reviewComment: number | null;
}

const NAME = '[a-z0-9_.-]+';
const REPO = new RegExp(`^${NAME}/${NAME}$`);
const ID = new RegExp(`^github:(${NAME}/${NAME}):([1-9][0-9]{0,9})(?::([1-9][0-9]{0,15}))?$`);

/** The channel id of a repository: `owner/name`, lower-cased. */
export const repoChannel = (repo: string): string => repo.toLowerCase();

/** `github:{owner}/{name}:{number}[:{review comment}]`: the opaque id the core keeps. */
export function encodeGitHubThreadId(parts: GitHubThreadParts): ThreadId {
  const repo = repoChannel(parts.repo);
  if (!REPO.test(repo)) throw new RangeError(`A GitHub repository is "owner/name", not "${parts.repo}".`);
  if (!Number.isSafeInteger(parts.number) || parts.number < 1)
    throw new RangeError(`An issue number is a positive integer, not ${parts.number}.`);
  const review = parts.reviewComment === null ? '' : `:${parts.reviewComment}`;
  return `github:${repo}:${parts.number}${review}`;
}

/** The parts of a GitHub thread id, or null when the id is not one. */
export function decodeGitHubThreadId(id: ThreadId): GitHubThreadParts | null {
  const [, repo, number, review] = ID.exec(id) ?? [];
  if (repo === undefined || number === undefined) return null;
  return { repo, number: Number(number), reviewComment: review === undefined ? null : Number(review) };
}
