import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { FailingChecksRest } from '../../src/adapters/github/failing-checks-rest';
import { GitHubChecksRest } from '../../src/adapters/github/github-checks-rest';
import { GitHubIssuesRest } from '../../src/adapters/github/github-issues-rest';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { frontEndServices } from '../../src/app/front-end-services';
import { createLogger } from '../../src/app/logger';
import { GitHubFrontEnd } from '../../src/bots/github';
import { SlackFrontEnd } from '../../src/bots/slack/slack-front-end';
import { StoreChatDirectory } from '../../src/core/directory/store-chat-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import { withDirectInbox } from '../../src/core/ingest/direct-inbox';
import { tellInThread } from '../../src/core/ingest/tell-in-thread';
import { GitHubAccountLinker } from '../../src/core/members/github-account-linker';
import type { Platform } from '../../src/core/model/platform';
import type { ChatEngine } from '../../src/core/ports/chat-engine';
import type { ChatPlatform } from '../../src/core/ports/chat-platform';
import type { Logger } from '../../src/core/ports/logger';
import type { Runner, RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import type { Store } from '../../src/core/ports/store';
import { linkedPullRequest } from '../../src/core/pull-requests/linked-pull-request';
import { PullRequestLinks } from '../../src/core/pull-requests/pull-request-links';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { parseWorkspaceFile } from '../../src/core/workspace/parse-workspace-file';
import { WorkspaceService } from '../../src/core/workspace/workspace-service';
import { waitFor } from './engine-harness';
import { BOT_USER, CHANNEL, deliver, SIGNING_SECRET, TEAM } from './slack-delivery';
import { GitHubChecksStandIn } from './stand-ins/github/github-checks-stand-in';
import { type Author, GitHubDeliverer, payloads } from './stand-ins/github/github-deliveries';
import { GitHubIssuesStandIn } from './stand-ins/github/github-issues-stand-in';
import { SlackWebApiStandIn } from './stand-ins/slack-web-api-stand-in';
import { makeTempDir } from './temp-dir';
import { openTestDatabase } from './test-database';

export const WEBHOOK_SECRET = 'whsec-test-0123456789';
/** The installation token Summon answers with: GitHub shows its comments as the App's bot. */
export const APP_TOKEN = 'ghs_summonTestInstallationToken';
export const APP_LOGIN = 'summon-app[bot]';
export const REPO = 'acme/api';
/** dana's Slack account (a decision made there names Slack). */
export const DANA_SLACK = 'U0DANA0001';

/** dana (approver) and mo (member) may write; rita is a member who may only read; stranger is nobody. */
export const PEOPLE = {
  dana: { login: 'dana-gh' },
  mo: { login: 'mo-gh' },
  rita: { login: 'rita-gh' },
  stranger: { login: 'stranger-gh' },
} as const satisfies Record<string, Author>;

/**
 * Summon's GitHub front end, for real: its webhook receiver behind a local HTTP server, its
 * REST calls against the GitHub stand-in (`acme/api` bound to space `backend`; `acme/other`
 * bound to none), the real store, and the real turn engine (with `runner`) or a given fake.
 */
export async function openGitHubHarness(options: {
  runner?: Runner;
  engine?: ChatEngine;
  permissionTtlMs?: number;
  /**
   * P22: Slack too (the Slack front end against its Web API stand-in, with the same engine):
   * the team bound to workspace `acme`, channel `C0GENERAL1` to space `backend`, dana linked.
   */
  slack?: boolean;
  /** P21: check runs on (the checks API stand-in on the same server, the App's token). */
  checks?: boolean;
}) {
  const standIn = await new GitHubIssuesStandIn({ [APP_TOKEN]: { login: APP_LOGIN, bot: true } }, [
    REPO,
    'acme/other',
  ]).start();
  for (const [login, permission] of [
    [PEOPLE.dana.login, 'admin'],
    [PEOPLE.mo.login, 'write'],
    [PEOPLE.rita.login, 'read'],
  ] as const)
    standIn.permissions.set(`${REPO}\n${login}`, permission);
  const checks = options.checks === true ? new GitHubChecksStandIn(standIn) : null;
  const db = await openTestDatabase('postgres');
  const dataDir = await makeTempDir();
  const directory = new FileWorkspaceDirectory(dataDir.path);
  const store = db.database.store;
  await new WorkspaceService(store, directory).apply(
    parseWorkspaceFile(`
workspace: acme
members:
  - { nickname: dana, role: approver, github: ${PEOPLE.dana.login}, slack: ${DANA_SLACK} }
  - { nickname: mo, role: member, github: ${PEOPLE.mo.login} }
  - { nickname: rita, role: member, github: ${PEOPLE.rita.login} }
spaces:
  - name: backend
    participants: [engineer, qa, dana, mo]
    repos: [Acme/API]
`),
  );
  let logText = '';
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString();
        done();
      },
    }),
  });
  // P7: a short backoff, so a 5xx retried in a test costs milliseconds.
  const services = frontEndServices({ store, logger, outboxBackoff: { baseMs: 20, maxMs: 200 } });
  const frontEnd = new GitHubFrontEnd({
    issues: new GitHubIssuesRest({ apiUrl: standIn.url, tokens: { token: async () => APP_TOKEN } }),
    webhookSecret: WEBHOOK_SECRET,
    accounts: new GitHubAccountLinker(store),
    outbox: services.outbox,
    outgoingDirectory: services.outgoingDirectory,
    logger,
    streamEditIntervalMs: 20,
    ...(options.permissionTtlMs === undefined ? {} : { permissionTtlMs: options.permissionTtlMs }),
    ...(checks === null
      ? {}
      : {
          checks: {
            rest: new GitHubChecksRest({ apiUrl: standIn.url, tokens: { token: async () => APP_TOKEN } }),
            directory: new StoreChatDirectory(store, () => null),
            linkedPull: linkedPullRequest(store),
            intervalMs: 50,
            retryDelaysMs: [20, 50, 100],
          },
        }),
  });
  const slack = options.slack === true ? await openSlack(store, logger) : null;
  const platforms = new Map<Platform, ChatPlatform>([['github', frontEnd.platform]]);
  if (slack !== null) platforms.set('slack', slack.front.platform);
  const turnEngine =
    options.runner === undefined
      ? null
      : new TurnEngine({
          store,
          platforms,
          queue: createJobQueue<RunJob>({ name: 'github-turns', closeTimeoutMs: 2000 }),
          runners: () => options.runner as Runner,
          rateLimiter: new InMemoryPairRateLimiter(),
          directory,
          clock: { now: () => new Date() },
          logger,
          relayName: null,
          timings: { ...DEFAULT_TIMINGS, statusEditIntervalMs: 20 },
          ...(frontEnd.turnChecks === null ? {} : { checks: frontEnd.turnChecks }),
        });
  await turnEngine?.start({ concurrency: 4 });
  // P22, P23: pull requests on their conversations; GitHub's deliveries update them and wake agents.
  const pullRequestLinks =
    turnEngine === null
      ? null
      : new PullRequestLinks({
          store,
          platforms,
          wake: (job) => turnEngine.wake(job),
          clock: { now: () => new Date() },
          logger,
          failingChecks: new FailingChecksRest({
            apiUrl: standIn.url,
            tokens: { token: async () => APP_TOKEN },
          }),
        });
  if (pullRequestLinks !== null) frontEnd.events.subscribe((delivery) => pullRequestLinks.handle(delivery));
  const engine =
    options.engine === undefined
      ? turnEngine
      : withDirectInbox(options.engine, {
          store,
          tell: tellInThread(new Map([['github', frontEnd.platform]]), logger),
        });
  if (engine === null) throw new Error('give a runner or an engine');
  await frontEnd.start(engine);
  if (slack !== null && turnEngine !== null && !(await slack.front.start(turnEngine)))
    throw new Error('the Slack front end did not start');
  const server: Server = createServer((request, response) => {
    if (!frontEnd.handleHttp(request, response) && slack?.front.handleHttp(request, response) !== true) {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github/webhooks`;
  const deliverer = new GitHubDeliverer(webhookUrl, WEBHOOK_SECRET);
  const slackUrl = webhookUrl.replace('/github/webhooks', '/slack/events');

  const runs = () =>
    store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));

  return {
    standIn,
    checks,
    frontEnd,
    engine: turnEngine,
    pullRequestLinks,
    /** P22: Slack's stand-in, and a signed delivery to Summon's Slack events URL. */
    slack:
      slack === null
        ? null
        : {
            standIn: slack.standIn,
            deliver: (payload: Record<string, unknown>) => deliver(slackUrl, payload),
          },
    store,
    deliverer,
    webhookUrl,
    runs,
    /** The harness's logger (its lines are what `log` returns). */
    logger,
    log: () => logText,
    /** A person comments on issue `number` of `repo` (as GitHub stores it), and GitHub delivers it. */
    comment: async (number: number, author: Author, body: string, repo = REPO) => {
      const written = standIn.addComment({
        kind: 'issue',
        repo,
        number,
        inReplyTo: null,
        body,
        login: author.login,
        bot: author.bot === true,
      });
      const sent = await deliverer.send(
        'issue_comment',
        payloads.issueComment(repo, number, written.id, author, body),
      );
      return { ...sent, comment: written };
    },
    /** Waits until `count` runs exist and all have ended. */
    settled: (count: number, timeoutMs = 20_000) =>
      waitFor(async () => {
        const all = await runs();
        return all.length === count && all.every((r) => r.status === 'succeeded' || r.status === 'failed')
          ? all
          : null;
      }, timeoutMs),
    /** Waits until the issue's thread holds a comment matching `check`. */
    waitForComment: (number: number, check: (body: string) => boolean, timeoutMs = 20_000) =>
      waitFor(async () => standIn.thread(REPO, number).find((c) => check(c.body)) ?? null, timeoutMs),
    close: async () => {
      await frontEnd.close();
      await turnEngine?.close();
      await slack?.front.close();
      await slack?.standIn.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await standIn.close();
      await db.dispose();
      await dataDir.remove();
    },
  };
}

export type GitHubHarness = Awaited<ReturnType<typeof openGitHubHarness>>;

/** P22: Slack beside GitHub, bound to the same workspace and space (dana linked on both). */
async function openSlack(store: Store, logger: Logger) {
  const standIn = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
  const apiUrl = await standIn.listen();
  await store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug('acme');
    if (workspace === null) throw new Error('no workspace acme');
    const space = (await tx.spaces.list(workspace.id)).find((s) => s.name === 'backend');
    if (space === undefined) throw new Error('no space backend');
    await tx.platformBindings.bind(workspace.id, 'slack', TEAM);
    await tx.channelBindings.bind(space.id, 'slack', CHANNEL);
    const dana = await tx.members.findByNickname(workspace.id, 'dana');
    if (dana !== null) await tx.members.update(dana.id, { slackUserId: SLACK_DANA });
  });
  const front = await SlackFrontEnd.connect({
    credentials: { botToken: standIn.token, signingSecret: SIGNING_SECRET, appToken: undefined, apiUrl },
    ...frontEndServices({ store, logger, outboxBackoff: { baseMs: 20, maxMs: 200 } }),
    logger,
    stream: { intervalMs: 20, startAfterMs: 0 },
  });
  if (front === null) throw new Error('the Slack front end did not connect');
  return { standIn, front };
}

/** dana's Slack account (P22 tests: the same member on Slack and GitHub). */
export const SLACK_DANA = 'U0DANA0001';

/**
 * G4, P21: the engineer's turn asks an approval (as the git gateway does for a push to
 * `branch`) and goes on once decided; `asked` gets each approval's id as it is asked.
 */
export function approvalAskingTurn(
  h: GitHubHarness,
  branch: string,
): { turn: (request: RunnerRequest) => AsyncIterable<RunnerEvent>; asked: string[] } {
  const asked: string[] = [];
  const turn = async function* (request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const engine = h.engine;
    if (engine === null) throw new Error('no engine');
    const approval = await engine.requestApproval({
      runId: request.runId,
      action: 'push_to_remote',
      details: { summary: `push to acme/api ${branch}`, lines: [`${branch}: 1a2b3c → 4d5e6f`] },
    });
    asked.push(approval.id);
    const outcome = await engine.awaitApproval(approval.id, request.signal);
    yield { type: 'final', text: `engineer here: the push was ${outcome}.` };
  };
  return { turn, asked };
}
