import { FailingChecksRest } from '../adapters/github/failing-checks-rest';
import type { RunJob } from '../core/engine/run-job';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import { systemClock } from '../core/ports/clock';
import { PullRequestLinks } from '../core/pull-requests/pull-request-links';
import { gitHubCredentials } from './git-gateway-runtime';
import type { Runtime } from './runtime';

/**
 * P22, P23: chat threads ⇄ the pull requests their agents opened, on the engine's platforms;
 * a failing suite wakes the agent through `wake` (the engine's). The failing check runs are
 * read with the GitHub credential, when one is set.
 */
export function createPullRequestLinks(
  runtime: Runtime,
  platforms: ReadonlyMap<Platform, ChatPlatform>,
  wake: (job: RunJob) => Promise<void>,
): PullRequestLinks {
  const tokens = gitHubCredentials(runtime.config.github);
  return new PullRequestLinks({
    store: runtime.store,
    platforms,
    wake,
    clock: systemClock,
    logger: runtime.logger.child({ component: 'pull-requests' }),
    failingChecks:
      tokens === null ? null : new FailingChecksRest({ apiUrl: runtime.config.github.apiUrl, tokens }),
  });
}
