import type { IncomingMessage, ServerResponse } from 'node:http';
import { BranchPullsRest } from '../adapters/github/branch-pulls-rest';
import { GitHubChecksRest } from '../adapters/github/github-checks-rest';
import { GitHubIssuesRest } from '../adapters/github/github-issues-rest';
import { DiscordFrontEnd } from '../bots/discord';
import { GitHubFrontEnd } from '../bots/github';
import { SlackFrontEnd } from '../bots/slack/slack-front-end';
import type { ServeRole } from '../config/serve-role';
import { RunActivityBoard } from '../core/agents/run-activity-board';
import type { RunJob } from '../core/engine/run-job';
import { GitHubAccountLinker } from '../core/members/github-account-linker';
import type { Platform } from '../core/model/platform';
import type { ChatEngine, InboxChatEngine } from '../core/ports/chat-engine';
import type { ChatPlatform } from '../core/ports/chat-platform';
import type { GitHubEventSource } from '../core/ports/github-events';
import type { RunnerResolver } from '../core/ports/runner';
import type { TurnChecks } from '../core/ports/turn-checks';
import type { WaitSignals } from '../core/ports/wait-signals';
import { linkedPullRequest } from '../core/pull-requests/linked-pull-request';
import { PushedBranches } from '../core/pull-requests/pushed-branches';
import type { RelayInbound } from '../core/relays/relay-inbound';
import { startEngine } from './engine-runtime';
import { frontEndServices } from './front-end-services';
import { gitHubCredentials } from './git-gateway-runtime';
import type { Runtime } from './runtime';

export interface ChatFrontEnds {
  /** The platforms that started (an invalid token leaves its platform out, with one log line). */
  platforms: Platform[];
  /** Routes a request of Summon's HTTP server to a front end; false when none takes it. */
  handleHttp(request: IncomingMessage, response: ServerResponse): boolean;
  /** R1–R3: the engine's side of the relay protocol (served by `server.ts`). */
  relayInbound: RelayInbound;
  /** E6: the engine behind the front ends, for `/mcp`'s asks (a mention) and decisions (a click). */
  engine: ChatEngine;
  /** E6: the platforms that started, by name: where `/mcp` opens a thread. */
  platformPorts: ReadonlyMap<Platform, ChatPlatform>;
  /** E6, T1: the engine's wait signals: `/mcp` waits for a run's end on them. */
  signals: WaitSignals;
  /** W5, T6: wakes a stored queued run (a webhook routine's firing). */
  wake(job: RunJob): Promise<void>;
  /** P19: GitHub's verified webhook deliveries, when the GitHub front end started (routines subscribe here). */
  githubEvents: GitHubEventSource | null;
  /** P21, P22: what the git gateway tells of accepted pushes (null without a GitHub credential). */
  pushedBranches: PushedBranches | null;
  close(): Promise<void>;
}

/** One configured front end: its platform for the engine, and how it starts and stops. */
interface FrontEnd {
  platform: ChatPlatform;
  /** False when its credentials were refused (logged once; no retry loop). */
  start(engine: InboxChatEngine): Promise<boolean>;
  /** A worker's start: the platform posts, nothing listens (no Bolt listeners, no Discord gateway). */
  startPosting(): Promise<boolean>;
  handleHttp?(request: IncomingMessage, response: ServerResponse): boolean;
  /** P19: the GitHub front end's deliveries. */
  githubEvents?: GitHubEventSource;
  /** P21: the GitHub front end's check runs, given to the engine. */
  turnChecks?: TurnChecks;
  close(): Promise<void>;
}

/**
 * The chat front ends whose credentials are configured — Slack (`SLACK_BOT_TOKEN`), Discord
 * (`DISCORD_TOKEN`) — with one engine behind all of them. None configured, or none whose
 * credentials were accepted: null (HTTP only, or the terminal chat).
 *
 * The role (`SUMMON_ROLE`) says what this process does: `all` listens and runs turns; `web`
 * listens and routes the inbox, its engine only enqueues; `worker` runs turns and posts through
 * the same platforms without listening (Slack's Web API without Bolt listeners, Discord's REST
 * without a gateway session), so exactly one process holds the Discord session.
 */
export async function startChatFrontEnds(
  runtime: Runtime,
  options: { replyPartLimit?: number; runners?: RunnerResolver; role?: ServeRole } = {},
): Promise<ChatFrontEnds | null> {
  const role = options.role ?? runtime.config.role;
  // A13: the engine reports run events here; Slack's App Home shows presence from it.
  const activity = new RunActivityBoard();
  const configured = await configuredFrontEnds(runtime, activity, options);
  // A worker's platforms can post before its first turn runs (recovery may run one at once).
  const frontEnds = role === 'worker' ? await postingOnly(configured) : configured;
  if (frontEnds.length === 0) return null;
  const platforms = new Map<Platform, ChatPlatform>(frontEnds.map((f) => [f.platform.platform, f.platform]));
  const checks = frontEnds.find((f) => f.turnChecks !== undefined)?.turnChecks;
  const engine = await startEngine(runtime, platforms, {
    activity,
    role,
    ...(checks === undefined ? {} : { checks }),
    ...(options.runners ? { runners: options.runners } : {}),
  });
  const started: FrontEnd[] = role === 'worker' ? frontEnds : [];
  try {
    if (role !== 'worker') {
      for (const frontEnd of frontEnds) {
        if (await frontEnd.start(engine.engine)) started.push(frontEnd);
        else await frontEnd.close();
      }
    }
  } catch (error) {
    await Promise.all(frontEnds.map((f) => f.close().catch(() => undefined)));
    await engine.close();
    throw error;
  }
  if (started.length === 0) {
    await engine.close();
    return null;
  }
  const githubEvents = started.find((f) => f.githubEvents !== undefined)?.githubEvents ?? null;
  // P22, P23: GitHub's pull request and check suite deliveries update threads and wake agents.
  githubEvents?.subscribe((delivery) => engine.pullRequestLinks.handle(delivery));
  const tokens = gitHubCredentials(runtime.config.github);
  // P21, P22: a push to an open pull request's branch records it on the thread and moves the turn's check.
  const pushedBranches =
    tokens === null
      ? null
      : new PushedBranches({
          store: runtime.store,
          pulls: new BranchPullsRest({ apiUrl: runtime.config.github.apiUrl, tokens }),
          ...(checks === undefined ? {} : { checks }),
          record: (pull) => engine.pullRequestLinks.recordOpened(pull),
          logger: runtime.logger.child({ component: 'pull-requests' }),
        });
  return {
    platforms: started.map((f) => f.platform.platform),
    // A worker serves no front-end route: Slack's deliveries go to the web process.
    relayInbound: engine.relayInbound,
    engine: engine.engine,
    platformPorts: new Map(started.map((f) => [f.platform.platform, f.platform])),
    signals: engine.signals,
    wake: (job) => engine.engine.wake(job),
    githubEvents,
    pushedBranches,
    handleHttp: (request, response) =>
      role !== 'worker' && started.some((f) => f.handleHttp?.(request, response) === true),
    close: async () => {
      await Promise.all(started.map((f) => f.close()));
      await engine.close();
    },
  };
}

/** A worker's front ends: each platform posts, nothing listens; one whose token is refused is left out. */
async function postingOnly(frontEnds: FrontEnd[]): Promise<FrontEnd[]> {
  const ready: FrontEnd[] = [];
  for (const frontEnd of frontEnds) {
    if (await frontEnd.startPosting()) ready.push(frontEnd);
    else await frontEnd.close();
  }
  return ready;
}

async function configuredFrontEnds(
  runtime: Runtime,
  activity: RunActivityBoard,
  options: { replyPartLimit?: number },
): Promise<FrontEnd[]> {
  const { config, logger, store } = runtime;
  // The core's services the front ends are handed: lookups, `/summon`, each platform's outbox.
  const services = frontEndServices({
    store,
    logger,
    metrics: runtime.metrics,
    activity: (runId) => activity.activityOf(runId),
    outboxBackoff: { giveUpMs: config.outboxGiveUpMs },
  });
  const frontEnds: FrontEnd[] = [];
  if (config.slack !== undefined) {
    const slack = await SlackFrontEnd.connect({
      credentials: config.slack,
      ...services,
      logger,
      ...(options.replyPartLimit === undefined ? {} : { replyPartLimit: options.replyPartLimit }),
      ...(config.slack.streamRolloverMs === undefined
        ? {}
        : { stream: { rolloverAfterMs: config.slack.streamRolloverMs } }),
    });
    if (slack !== null)
      frontEnds.push({
        platform: slack.platform,
        start: (engine) => slack.start(engine),
        // Built but never started: the Web API client and the outbox, no Bolt listener or socket.
        startPosting: async () => true,
        handleHttp: (request, response) => slack.handleHttp(request, response),
        close: () => slack.close(),
      });
  }
  const discordToken = config.discord.token;
  if (discordToken !== undefined) {
    // P24: the privileged Server Members intent only when a workspace admits people by Discord role.
    const memberIntent = await store.transaction((tx) => tx.accessGroups.anyOnPlatform('discord'));
    const discord = new DiscordFrontEnd({ ...services, logger, apiUrl: config.discord.apiUrl, memberIntent });
    frontEnds.push({
      platform: discord.platform,
      start: (engine) => discord.start(engine, discordToken),
      startPosting: () => discord.startPosting(discordToken),
      close: () => discord.close(),
    });
  }
  const github = gitHubFrontEnd(runtime, services);
  if (github !== null) frontEnds.push(github);
  return frontEnds;
}

/** P19: GitHub's front end, when a webhook secret and a credential to answer with are set. */
function gitHubFrontEnd(
  runtime: Runtime,
  services: Pick<ReturnType<typeof frontEndServices>, 'outbox' | 'outgoingDirectory' | 'directory'>,
): FrontEnd | null {
  const { config, logger } = runtime;
  const secret = config.github.webhookSecret;
  const tokens = gitHubCredentials(config.github);
  if (secret === undefined) return null;
  if (tokens === null) {
    logger.error(
      {},
      'GITHUB_WEBHOOK_SECRET is set but neither a GitHub App nor GITHUB_TOKEN is: the GitHub front end is off',
    );
    return null;
  }
  const issues = new GitHubIssuesRest({ apiUrl: config.github.apiUrl, tokens });
  // P21: only a GitHub App may write check runs (GITHUB_TOKEN alone: no check runs).
  const app = config.github.appId !== undefined && config.github.appPrivateKey !== undefined;
  const checks = app
    ? {
        rest: new GitHubChecksRest({ apiUrl: config.github.apiUrl, tokens }),
        directory: services.directory,
        // P22: a chat thread's turns show on the pull request recorded on its conversation.
        linkedPull: linkedPullRequest(runtime.store),
      }
    : null;
  const github = new GitHubFrontEnd({
    issues,
    webhookSecret: secret,
    accounts: new GitHubAccountLinker(runtime.store),
    outbox: services.outbox,
    outgoingDirectory: services.outgoingDirectory,
    logger,
    ...(checks === null ? {} : { checks }),
  });
  return {
    platform: github.platform,
    start: (engine) => github.start(engine),
    startPosting: async () => true,
    handleHttp: (request, response) => github.handleHttp(request, response),
    githubEvents: github.events,
    ...(github.turnChecks === null ? {} : { turnChecks: github.turnChecks }),
    close: () => github.close(),
  };
}
