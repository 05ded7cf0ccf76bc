import { DeliveryError, type PlatformSender } from '../../core/outbox/delivery-error';
import type { GitHubIssues } from '../../core/ports/github-issues';

/**
 * P7: the calls the outbox stores for GitHub: comments posted and edited, replies in review
 * threads, an issue opened (N4) or its body edited. No token is stored: each is asked for its
 * repository when the call is sent. Refs: `c{id}`, `r{id}`, `i{number}`.
 */
export type GitHubCall =
  | { kind: 'comment.create'; payload: { repo: string; number: number; body: string } }
  | { kind: 'comment.update'; payload: { repo: string; id: number; body: string } }
  | { kind: 'review.reply'; payload: { repo: string; pull: number; commentId: number; body: string } }
  | { kind: 'review.update'; payload: { repo: string; id: number; body: string } }
  | { kind: 'issue.create'; payload: { repo: string; title: string; body: string } }
  | { kind: 'issue.update'; payload: { repo: string; number: number; body: string } };

/** What Octokit throws: GitHub's status and headers (no token: Octokit redacts the authorization). */
interface HttpFailure {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
}

/**
 * P7: sends one stored GitHub call through the REST port. GitHub's answers become the outbox's
 * advice: a 429 or a 403 secondary rate limit waits what GitHub says (`retry-after`, else until
 * `x-ratelimit-reset`, else a minute, as GitHub's guide asks); a 5xx or a network error backs
 * off; any other refusal (404, 422, a 403 of permissions) is final.
 */
export class GitHubSender implements PlatformSender {
  constructor(
    private readonly rest: GitHubIssues,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(kind: string, payload: unknown): Promise<string | null> {
    const call = { kind, payload } as GitHubCall;
    try {
      return await this.call(call);
    } catch (error) {
      throw toDeliveryError(kind, error, this.now());
    }
  }

  private async call(call: GitHubCall): Promise<string> {
    const { rest } = this;
    switch (call.kind) {
      case 'comment.create': {
        const { repo, number, body } = call.payload;
        return `c${await rest.createIssueComment(repo, number, body)}`;
      }
      case 'comment.update': {
        const { repo, id, body } = call.payload;
        await rest.updateIssueComment(repo, id, body);
        return `c${id}`;
      }
      case 'review.reply': {
        const { repo, pull, commentId, body } = call.payload;
        return `r${await rest.replyToReviewComment(repo, pull, commentId, body)}`;
      }
      case 'review.update': {
        const { repo, id, body } = call.payload;
        await rest.updateReviewComment(repo, id, body);
        return `r${id}`;
      }
      case 'issue.create': {
        const { repo, title, body } = call.payload;
        return `i${await rest.createIssue(repo, title, body)}`;
      }
      case 'issue.update': {
        const { repo, number, body } = call.payload;
        await rest.updateIssueBody(repo, number, body);
        return `i${number}`;
      }
      default:
        throw new DeliveryError(`Not a GitHub call the outbox makes: ${(call as { kind: string }).kind}.`, {
          kind: 'never',
        });
    }
  }
}

/** A minute: what GitHub asks a client to wait after a secondary rate limit that names no time. */
const SECONDARY_LIMIT_WAIT_MS = 60_000;

/** P7: GitHub's answer as the outbox's advice. */
export function toDeliveryError(kind: string, error: unknown, now: Date): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const failure = (error ?? {}) as HttpFailure;
  const status = typeof failure.status === 'number' ? failure.status : null;
  const reason = typeof failure.message === 'string' ? failure.message : String(error);
  const cause = new Error(reason);
  if (status === null)
    return new DeliveryError(
      `${kind}: GitHub could not be reached (${reason})`,
      { kind: 'backoff' },
      { cause },
    );
  const headers = failure.response?.headers ?? {};
  const wait = rateLimitWait(status, headers, reason, now);
  if (wait !== null)
    return new DeliveryError(
      `${kind}: rate limited by GitHub (HTTP ${status})`,
      { kind: 'after', ms: wait },
      { cause },
    );
  const retry =
    status >= 500 || status === 408 ? ({ kind: 'backoff' } as const) : ({ kind: 'never' } as const);
  return new DeliveryError(`${kind}: GitHub answered HTTP ${status} (${reason})`, retry, { cause });
}

/** The wait a rate-limited answer asks for; null when the answer is no rate limit. */
function rateLimitWait(
  status: number,
  headers: Record<string, string | number | undefined>,
  message: string,
  now: Date,
): number | null {
  if (status !== 429 && status !== 403) return null;
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']) * 1000;
    if (Number.isFinite(reset)) return Math.max(reset - now.getTime(), 0);
  }
  // A 403 is a rate limit only when GitHub says so; otherwise it is a refusal of permissions.
  if (status === 429 || /rate limit/i.test(message)) return SECONDARY_LIMIT_WAIT_MS;
  return null;
}
