import { randomUUID } from 'node:crypto';
import { Webhooks } from '@octokit/webhooks';

type Example = Record<string, unknown> & { action?: string };
const EXAMPLES = require('@octokit/webhooks-examples') as { name: string; examples: Example[] }[];

/** A recorded delivery of GitHub's (octokit/webhooks' examples), deep-copied to be changed. */
function example(event: string, action: string): Example {
  const found = EXAMPLES.find((e) => e.name === event)?.examples.find((e) => e.action === action);
  if (found === undefined) throw new Error(`no recorded ${event}.${action} delivery`);
  return structuredClone(found);
}

export interface Author {
  login: string;
  bot?: boolean;
}

const user = (author: Author) => ({
  login: author.login,
  id: 1000 + author.login.length,
  type: author.bot === true ? 'Bot' : 'User',
});

const withRepo = (payload: Example, repo: string, sender: Author): Example => {
  const [owner = '', name = ''] = repo.split('/');
  const repository = payload.repository as Record<string, unknown>;
  repository.full_name = repo;
  repository.name = name;
  (repository.owner as Record<string, unknown>).login = owner;
  payload.sender = { ...(payload.sender as object), ...user(sender) };
  return payload;
};

/** GitHub's payloads, from recordings, with the test's repository, thread, author and text. */
export const payloads = {
  issueComment(repo: string, number: number, commentId: number, author: Author, body: string, pull = false) {
    const p = example('issue_comment', 'created');
    const issue = p.issue as Record<string, unknown>;
    issue.number = number;
    if (pull) issue.pull_request = { url: `https://api.github.com/repos/${repo}/pulls/${number}` };
    else delete issue.pull_request;
    p.comment = {
      ...(p.comment as object),
      id: commentId,
      body,
      user: { ...(p.comment as { user: object }).user, ...user(author) },
    };
    return withRepo(p, repo, author);
  },
  reviewComment(
    repo: string,
    pull: number,
    commentId: number,
    inReplyTo: number | null,
    author: Author,
    body: string,
  ) {
    const p = example('pull_request_review_comment', 'created');
    (p.pull_request as Record<string, unknown>).number = pull;
    const comment = {
      ...(p.comment as object),
      id: commentId,
      body,
      user: { ...(p.comment as { user: object }).user, ...user(author) },
    } as Record<string, unknown>;
    if (inReplyTo === null) delete comment.in_reply_to_id;
    else comment.in_reply_to_id = inReplyTo;
    p.comment = comment;
    return withRepo(p, repo, author);
  },
  checkSuiteCompleted(
    repo: string,
    conclusion: 'success' | 'failure',
    suite: { id?: number; headSha?: string; pulls?: number[] } = {},
  ) {
    const p = example('check_suite', 'completed');
    const checkSuite = p.check_suite as Record<string, unknown>;
    checkSuite.conclusion = conclusion;
    if (suite.id !== undefined) checkSuite.id = suite.id;
    if (suite.headSha !== undefined) checkSuite.head_sha = suite.headSha;
    if (suite.pulls !== undefined)
      checkSuite.pull_requests = suite.pulls.map((number) => ({
        ...((checkSuite.pull_requests as object[])[0] ?? {}),
        number,
      }));
    return withRepo(p, repo, { login: 'github-actions[bot]', bot: true });
  },
  releasePublished(repo: string, tag: string, author: Author) {
    const p = example('release', 'published');
    const release = p.release as Record<string, unknown>;
    release.tag_name = tag;
    release.name = `Release ${tag}`;
    release.html_url = `https://github.com/${repo}/releases/tag/${tag}`;
    return withRepo(p, repo, author);
  },
  pullRequest(
    repo: string,
    action: string,
    pull: { number: number; title: string; headSha: string; merged?: boolean },
  ) {
    const p = example('pull_request', action);
    const pr = p.pull_request as Record<string, unknown>;
    pr.number = pull.number;
    p.number = pull.number;
    pr.title = pull.title;
    pr.head = { ...(pr.head as object), sha: pull.headSha };
    pr.state = action === 'closed' ? 'closed' : 'open';
    pr.merged = pull.merged ?? false;
    return withRepo(p, repo, { login: 'dana-gh' });
  },
  /** P21: `author` clicked the button `identifier` on a check run (its fields set by the caller). */
  checkRunAction(repo: string, author: Author, identifier: string) {
    const p = example('check_run', 'requested_action');
    p.requested_action = { identifier };
    return withRepo(p, repo, author);
  },
  issueOpened(repo: string, number: number, author: Author, body: string) {
    const p = example('issues', 'opened');
    p.issue = {
      ...(p.issue as object),
      number,
      body,
      user: { ...(p.issue as { user: object }).user, ...user(author) },
    };
    return withRepo(p, repo, author);
  },
};

/**
 * Sends deliveries to Summon's webhook as GitHub does: `X-GitHub-Event`, `X-GitHub-Delivery`
 * and `X-Hub-Signature-256` signed by @octokit/webhooks with the secret (or not, or wrongly).
 */
export class GitHubDeliverer {
  private readonly webhooks: Webhooks;

  constructor(
    private readonly url: string,
    secret: string,
  ) {
    this.webhooks = new Webhooks({ secret });
  }

  async send(
    event: string,
    payload: unknown,
    options: { deliveryId?: string; signature?: 'valid' | 'none' | string; raw?: string } = {},
  ): Promise<{ status: number; deliveryId: string; body: string }> {
    const deliveryId = options.deliveryId ?? randomUUID();
    const raw = options.raw ?? JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/0000000',
      'x-github-event': event,
      'x-github-delivery': deliveryId,
      'x-github-hook-id': '1',
    };
    const signature = options.signature ?? 'valid';
    if (signature === 'valid') headers['x-hub-signature-256'] = await this.webhooks.sign(raw);
    else if (signature !== 'none') headers['x-hub-signature-256'] = signature;
    const response = await fetch(this.url, { method: 'POST', headers, body: raw });
    return { status: response.status, deliveryId, body: await response.text() };
  }
}
