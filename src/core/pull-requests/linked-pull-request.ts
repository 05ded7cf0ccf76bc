import type { LinkedPullRequest } from '../ports/github-check-runs';
import type { Store } from '../ports/store';

/**
 * P21, P22: a chat thread's pull request, for its turns' check runs: the newest open one recorded
 * on the thread's conversation (an agent opened it from there). A thread with several
 * shows its turns on the newest: the one its agents are most likely working on now.
 */
export function linkedPullRequest(store: Store): LinkedPullRequest {
  return (platform, thread) =>
    store.transaction((tx) => tx.pullRequests.newestOpenOfThread(platform, thread));
}
