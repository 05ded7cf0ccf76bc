import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatDirectory } from '../../core/ports/chat-directory';
import type { InboxChatEngine } from '../../core/ports/chat-engine';
import type { GitHubAccountLinks } from '../../core/ports/github-account-links';
import type { GitHubCheckRuns, LinkedPullRequest } from '../../core/ports/github-check-runs';
import type { GitHubDelivery, GitHubEventSource } from '../../core/ports/github-events';
import type { GitHubIssues } from '../../core/ports/github-issues';
import type { Logger } from '../../core/ports/logger';
import type { Outbox, OutboxFactory } from '../../core/ports/outbox';
import { CheckRunClicks } from './check-run-clicks';
import { GitHubInboxDecoder } from './github-inbox';
import { WritePermissions } from './github-permissions';
import { GitHubPlatform } from './github-platform';
import { GitHubSender } from './github-sender';
import { encodeGitHubThreadId } from './github-thread-id';
import { GitHubTurnChecks } from './github-turn-checks';
import { GitHubWebhookReceiver } from './github-webhooks';

export interface GitHubFrontEndOptions {
  /** The REST calls on issues and pull requests (`src/app` hands in the adapter's, over GITHUB_API_URL). */
  issues: GitHubIssues;
  /** GITHUB_WEBHOOK_SECRET: what every delivery's `X-Hub-Signature-256` is checked with. */
  webhookSecret: string;
  /** P20: `/summon link-account <code>` as a comment (the core's, over the store). */
  accounts: GitHubAccountLinks;
  /** P7: this platform's outbox around the front end's `GitHubSender` (`src/app` builds it). */
  outbox: OutboxFactory;
  /** P7, T2: the workspace a repository's outgoing calls are stored under, waiting out a database outage. */
  outgoingDirectory: ChatDirectory;
  logger: Logger;
  /** P20: how long a person's write permission is remembered; default 60 s. */
  permissionTtlMs?: number;
  /** P14: a streamed reply is edited at most once per this many ms; default 1,000. */
  streamEditIntervalMs?: number;
  now?: () => Date;
  /**
   * P21: turns on pull requests as check runs, approvals as their buttons (a GitHub App only);
   * `directory` finds the workspace of a clicked repository. Absent: no check runs.
   */
  checks?: {
    rest: GitHubCheckRuns;
    directory: ChatDirectory;
    /** P22: a chat thread's recorded pull request, whose turns show on it too. */
    linkedPull?: LinkedPullRequest;
    intervalMs?: number;
    retryDelaysMs?: number[];
  };
}

/**
 * P19: the GitHub front end: the platform the core posts comments through, and the webhook
 * receiver whose comments reach the core through the inbox (T4). It is also where core code
 * subscribes to GitHub's deliveries (`events`).
 */
export class GitHubFrontEnd {
  readonly platform: GitHubPlatform;
  /** P7: every comment posted or edited is stored, then sent (retry-after, backoff, never twice). */
  readonly deliverer: Outbox;
  /** P19: every verified delivery, for core code that reacts to GitHub (routines' triggers). */
  readonly events: GitHubEventSource;
  /** P21: the engine's `TurnChecks` (check runs), when `checks` is configured. */
  readonly turnChecks: GitHubTurnChecks | null = null;
  private readonly rest: GitHubIssues;
  private readonly receiver: GitHubWebhookReceiver;
  private readonly listeners = new Set<(delivery: GitHubDelivery) => void | Promise<void>>();
  private readonly logger: Logger;
  private engine: InboxChatEngine | null = null;
  private pending: Promise<unknown>[] = [];

  constructor(private readonly options: GitHubFrontEndOptions) {
    this.logger = options.logger.child({ component: 'github' });
    this.rest = options.issues;
    this.deliverer = options.outbox('github', new GitHubSender(this.rest));
    this.platform = new GitHubPlatform({
      outbox: this.deliverer,
      workspaceOf: async (repo) => (await options.outgoingDirectory.repoWorkspace(repo))?.workspaceId ?? null,
      logger: this.logger,
      ...(options.streamEditIntervalMs === undefined
        ? {}
        : { streamEditIntervalMs: options.streamEditIntervalMs }),
    });
    const now = options.now ?? (() => new Date());
    this.receiver = new GitHubWebhookReceiver({
      secret: options.webhookSecret,
      logger: this.logger,
      ingest: () => (this.engine === null ? null : (entry) => (this.engine as InboxChatEngine).ingest(entry)),
      delivered: (delivery) => this.deliver(delivery),
      now,
    });
    this.events = {
      subscribe: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
    if (options.checks !== undefined) this.turnChecks = this.attachChecks(options.checks);
  }

  /** P21, G4: check runs written for the engine; Approve / Deny clicked on them decided through it. */
  private attachChecks(checks: NonNullable<GitHubFrontEndOptions['checks']>): GitHubTurnChecks {
    const clicks = new CheckRunClicks({
      engine: () => this.engine,
      directory: checks.directory,
      refused: (click, reason) =>
        click.pull === null
          ? Promise.resolve()
          : this.platform.tellPrivately(
              encodeGitHubThreadId({ repo: click.repo, number: click.pull, reviewComment: null }),
              click.login,
              reason,
            ),
      logger: this.logger,
    });
    this.listeners.add((delivery) => clicks.handle(delivery));
    return new GitHubTurnChecks({ ...checks, logger: this.logger });
  }

  /** T4: the engine's inbox routes GitHub's stored comments from now on. */
  async start(engine: InboxChatEngine): Promise<boolean> {
    const now = this.options.now ?? (() => new Date());
    const permissions = new WritePermissions((repo, login) => this.rest.permissionOf(repo, login), {
      ttlMs: this.options.permissionTtlMs ?? 60_000,
      now: () => now().getTime(),
    });
    engine.routeInboxWith(
      'github',
      new GitHubInboxDecoder({
        platform: this.platform,
        rest: this.rest,
        permissions,
        engine,
        accounts: this.options.accounts,
        logger: this.logger,
        now,
      }),
    );
    this.engine = engine;
    // P7: what the outbox still holds from before a restart is sent.
    const resumed = await this.deliverer.resume();
    if (resumed.resent + resumed.abandoned + resumed.pruned > 0) this.logger.info(resumed, 'outbox resumed');
    return true;
  }

  /** `POST /github/webhooks`; false for any other request. */
  handleHttp(request: IncomingMessage, response: ServerResponse): boolean {
    return this.receiver.handle(request, response);
  }

  /** Resolves once every listener called so far has finished. */
  async idle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.allSettled(pending);
  }

  async close(): Promise<void> {
    this.engine = null;
    await this.idle();
    await this.deliverer.stop();
    await this.turnChecks?.idle();
  }

  private deliver(delivery: GitHubDelivery): void {
    for (const listener of this.listeners) {
      const run = Promise.resolve()
        .then(() => listener(delivery))
        .catch((error: unknown) =>
          this.logger.error(
            { err: String(error), deliveryId: delivery.id, event: delivery.name },
            'a GitHub event listener failed',
          ),
        );
      this.pending.push(run);
    }
  }
}
