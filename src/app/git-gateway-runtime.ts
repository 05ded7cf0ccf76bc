import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_GATEWAY_TIMINGS } from '../adapters/git-gateway/gateway-deps';
import { GatewayRunWorkspace } from '../adapters/git-gateway/gateway-run-workspace';
import { GitGateway } from '../adapters/git-gateway/git-gateway';
import { PackInspector } from '../adapters/git-gateway/pack-inspector';
import { runGitEnvironment } from '../adapters/git-gateway/run-git-environment';
import { SpaceWorktrees } from '../adapters/git-gateway/space-worktrees';
import type { UpstreamAuth } from '../adapters/git-gateway/upstream';
import { GitHubAppAuth, type GitHubTokens, StaticGitHubTokens } from '../adapters/github/github-app-auth';
import { PullRequests } from '../adapters/github/pull-requests';
import { threadPoster } from '../adapters/github/thread-poster';
import { type GitHubConfig, workspacesDir } from '../config/config';
import { postSystemMessage } from '../core/engine/cards/system-message';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import { systemClock } from '../core/ports/clock';
import type { PullRequestLinks } from '../core/pull-requests/pull-request-links';
import type { Runtime } from './runtime';

/** The gateway's GitHub credential: the App when configured, else GITHUB_TOKEN, else none. */
export function gitHubCredentials(config: GitHubConfig): (UpstreamAuth & GitHubTokens) | null {
  if (config.appId !== undefined && config.appPrivateKey !== undefined) {
    return new GitHubAppAuth({
      appId: config.appId,
      privateKey: config.appPrivateKey,
      apiUrl: config.apiUrl,
    });
  }
  if (config.token !== undefined) return new StaticGitHubTokens(config.token);
  return null;
}

/**
 * G3: the git gateway of this server, or null when no GitHub credential is configured (then
 * `/git/` answers 404 and runs get no git environment).
 */
export async function createGitGateway(runtime: Runtime): Promise<GitGateway | null> {
  const { config } = runtime;
  const credentials = gitHubCredentials(config.github);
  if (credentials === null) return null;
  const workDir = path.join(config.dataDir, 'git-gateway');
  const spoolDir = path.join(workDir, 'spool');
  await mkdir(spoolDir, { recursive: true });
  return new GitGateway({
    store: runtime.store,
    approvals: runtime.engineApprovals,
    credentials: runtime.runCredentials,
    inspector: new PackInspector({ workDir, upstreamUrl: config.github.gitUrl, auth: credentials }),
    upstreamUrl: config.github.gitUrl,
    auth: credentials,
    spoolDir,
    logger: runtime.logger.child({ component: 'git-gateway' }),
    metrics: runtime.metrics,
    clock: systemClock,
    timings: DEFAULT_GATEWAY_TIMINGS,
    processSlots: runtime.launcher.slots,
  });
}

/**
 * G1: the `open_pull_request` operation for the tool kit, on the running engine's approvals
 * and platforms; null when no GitHub credential is configured.
 */
export function createPullRequests(
  runtime: Runtime,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  links?: PullRequestLinks,
): PullRequests | null {
  const tokens = gitHubCredentials(runtime.config.github);
  if (tokens === null) return null;
  return new PullRequests({
    store: runtime.store,
    approvals: runtime.engineApprovals,
    tokens,
    apiUrl: runtime.config.github.apiUrl,
    post: threadPoster(runtime.store, (conversation, text) =>
      postSystemMessage({ store: runtime.store, platforms }, conversation, text),
    ),
    logger: runtime.logger.child({ component: 'pull-requests' }),
    // P22: the pull request's body links the thread; the thread shows the pull request.
    ...(links === undefined ? {} : { links }),
  });
}

/**
 * G3: the environment a run's git needs (the tool kit / command runner merges `env` into the
 * run's process environment); null when the run's space has no repositories.
 */
export function gitEnvironmentForRun(runtime: Runtime, runId: string, gatewayUrl?: string) {
  return runGitEnvironment(runtime.runCredentials, runId, {
    gatewayUrl:
      gatewayUrl ??
      runtime.config.github.gatewayUrl ??
      `http://127.0.0.1:${runtime.listening.port ?? runtime.config.port}`,
    upstreamUrl: runtime.config.github.gitUrl,
  });
}

/**
 * M9, G3: each run's worktrees and git environment for the engine (synced through this
 * server's gateway, credential revoked when the run ends); null when GitHub is not
 * configured (then there is no gateway and runs work in their agent folders).
 */
export function createRunWorkspace(runtime: Runtime, gatewayUrl?: string): GatewayRunWorkspace | null {
  if (gitHubCredentials(runtime.config.github) === null) return null;
  const logger = runtime.logger.child({ component: 'run-workspace' });
  // The gateway's own git HOME: no user configuration or credential helper of the host.
  const home = path.join(runtime.config.dataDir, 'git-gateway', 'home');
  return new GatewayRunWorkspace({
    worktrees: new SpaceWorktrees({ root: workspacesDir(runtime.config), logger, home }),
    gitHome: home,
    environment: (runId) => gitEnvironmentForRun(runtime, runId, gatewayUrl),
    revoke: (runId) => runtime.runCredentials.revoke(runId),
    logger,
  });
}
