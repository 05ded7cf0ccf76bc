import { z } from 'zod';
import { isSummonComment } from './github-render';
import { encodeGitHubThreadId, repoChannel } from './github-thread-id';

/** A prompt never gets more of one comment than this (GitHub's own limit on a comment body). */
export const COMMENT_TEXT_LIMIT = 65_536;

/**
 * What the front end keeps of a person's comment (T4: stored as the inbox row's payload), the
 * same for an issue comment, a review comment, a review and an opened issue.
 */
export interface GitHubComment {
  repo: string;
  /** The issue's or pull request's number. */
  number: number;
  /** A review thread's first comment; null for the issue's or pull request's own thread. */
  reviewComment: number | null;
  thread: string;
  /** P3: an opened issue starts its thread; comments are replies in it. */
  topLevel: boolean;
  /** `c{id}`, `r{id}`, `v{id}` (a review) or `i{number}` (an issue's body). */
  messageRef: string;
  login: string;
  text: string;
}

/** What a delivery is, once read: a person's comment, nothing of ours, or a malformed payload. */
export type ReadDelivery =
  | { kind: 'comment'; comment: GitHubComment }
  | { kind: 'ignored'; reason: string }
  | { kind: 'malformed'; reason: string };

const login = z.string().min(1).max(100);
const user = z.object({ login, type: z.string() });
const repository = z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/) });
const id = z.number().int().positive();
const body = z.string().nullable().optional();

const issueComment = z.object({
  action: z.string(),
  issue: z.object({ number: id }),
  comment: z.object({ id, body, user }),
  repository,
  sender: user,
});
const reviewComment = z.object({
  action: z.string(),
  pull_request: z.object({ number: id }),
  comment: z.object({ id, body, user, in_reply_to_id: id.nullable().optional() }),
  repository,
  sender: user,
});
const review = z.object({
  action: z.string(),
  pull_request: z.object({ number: id }),
  review: z.object({ id, body, user }),
  repository,
  sender: user,
});
const issue = z.object({
  action: z.string(),
  issue: z.object({ number: id, body, user }),
  repository,
  sender: user,
});

/** M7, bad input: a comment's text, bounded before it can reach a prompt. */
export function boundedText(text: string): string {
  if (text.length <= COMMENT_TEXT_LIMIT) return text;
  const cut = `\n\n[… the rest of this comment (${text.length - COMMENT_TEXT_LIMIT} more characters) was left out]`;
  return text.slice(0, COMMENT_TEXT_LIMIT - cut.length) + cut;
}

/**
 * P19: a webhook delivery read as a person's comment: `issue_comment` and
 * `pull_request_review_comment` created, `pull_request_review` submitted with a body, `issues`
 * opened. P10: a bot's comment (Summon's App, other apps) and a comment Summon wrote (its
 * marker: with `GITHUB_TOKEN` it writes as a person) are never input.
 */
export function readDelivery(event: string, payload: unknown): ReadDelivery {
  switch (event) {
    case 'issue_comment':
      return parsed(issueComment, payload, (p) =>
        p.action !== 'created'
          ? null
          : {
              number: p.issue.number,
              review: null,
              ref: `c${p.comment.id}`,
              top: false,
              ...of(p, p.comment),
            },
      );
    case 'pull_request_review_comment':
      return parsed(reviewComment, payload, (p) =>
        p.action !== 'created'
          ? null
          : {
              number: p.pull_request.number,
              review: p.comment.in_reply_to_id ?? p.comment.id,
              ref: `r${p.comment.id}`,
              top: false,
              ...of(p, p.comment),
            },
      );
    case 'pull_request_review':
      return parsed(review, payload, (p) =>
        p.action !== 'submitted'
          ? null
          : {
              number: p.pull_request.number,
              review: null,
              ref: `v${p.review.id}`,
              top: false,
              ...of(p, p.review),
            },
      );
    case 'issues':
      return parsed(issue, payload, (p) =>
        p.action !== 'opened'
          ? null
          : { number: p.issue.number, review: null, ref: `i${p.issue.number}`, top: true, ...of(p, p.issue) },
      );
    default:
      return { kind: 'ignored', reason: `event ${event} is not a comment` };
  }
}

interface Fields {
  number: number;
  review: number | null;
  ref: string;
  top: boolean;
  repo: string;
  login: string;
  bot: boolean;
  body: string;
}

const of = (
  p: { repository: { full_name: string }; sender: { type: string } },
  written: { body?: string | null | undefined; user: { login: string; type: string } },
) => ({
  repo: repoChannel(p.repository.full_name),
  login: written.user.login,
  bot: written.user.type === 'Bot' || p.sender.type === 'Bot',
  body: written.body ?? '',
});

function parsed<T>(schema: z.ZodType<T>, payload: unknown, fields: (p: T) => Fields | null): ReadDelivery {
  const result = schema.safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0];
    return {
      kind: 'malformed',
      reason: `${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const f = fields(result.data);
  if (f === null) return { kind: 'ignored', reason: 'an action Summon does not act on' };
  // P10: the echo guard.
  if (f.bot) return { kind: 'ignored', reason: 'written by a bot' };
  if (isSummonComment(f.body)) return { kind: 'ignored', reason: 'written by Summon' };
  if (f.body.trim() === '') return { kind: 'ignored', reason: 'no text' };
  return {
    kind: 'comment',
    comment: {
      repo: f.repo,
      number: f.number,
      reviewComment: f.review,
      thread: encodeGitHubThreadId({ repo: f.repo, number: f.number, reviewComment: f.review }),
      topLevel: f.top,
      messageRef: f.ref,
      login: f.login,
      text: boundedText(f.body),
    },
  };
}
