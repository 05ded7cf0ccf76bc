import type { GitHubEventSource } from '../core/ports/github-events';
import type { RoutineFiringDeps } from '../core/routines/fire-routines';
import { fireGitHubRoutines } from '../core/routines/github-firing';

/**
 * W1, W2: `github` routines listen to the GitHub front end's verified deliveries. Every process
 * that receives a delivery (a redelivery may reach another) tries it; the claim in PostgreSQL
 * fires each routine once per delivery. A failure is logged with the delivery; GitHub's answer
 * was already given, so "Redeliver" tries again. Returns the way to stop listening.
 */
export function subscribeGitHubRoutines(events: GitHubEventSource, deps: RoutineFiringDeps): () => void {
  const log = deps.logger.child({ component: 'routines' });
  return events.subscribe(async (delivery) => {
    try {
      await fireGitHubRoutines(deps, delivery);
    } catch (error) {
      log.error(
        { err: error, delivery: delivery.id, event: delivery.name, repo: delivery.repo },
        'GitHub delivery could not fire its routines; redeliver it to try again',
      );
    }
  });
}
