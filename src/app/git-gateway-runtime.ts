import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_GATEWAY_TIMINGS } from '../adapters/git-gateway/gateway-deps';
import { GitGateway } from '../adapters/git-gateway/git-gateway';
import { PackInspector } from '../adapters/git-gateway/pack-inspector';
import type { UpstreamAuth } from '../adapters/git-gateway/upstream';
import { GitHubAppAuth, type GitHubTokens, StaticGitHubTokens } from '../adapters/github/github-app-auth';
import type { GitHubConfig } from '../config/config';
import { systemClock } from '../core/ports/clock';
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
    clock: systemClock,
    timings: DEFAULT_GATEWAY_TIMINGS,
  });
}
