import type { GitHubDelivery } from '../ports/github-events';
import { type ClaimedFiring, postNotice, type RoutineFiringDeps, startFiring } from './fire-routines';
import { githubPrompt } from './github-fields';
import { githubTriggerMatches } from './github-trigger';
import { claimWebhookFiring, type RefusedDelivery } from './webhook-firing';

/**
 * W1, W2: a verified GitHub delivery fires each unpaused `github` routine of the space its
 * repository is bound to (P19) whose event, repository and filters it matches. Exactly once
 * per (routine, `X-GitHub-Delivery`) across every process and redelivery: the firing is
 * claimed `ON CONFLICT DO NOTHING` on that key in the transaction that stores its conversation
 * (`claimWebhookFiring`). The turn is told the delivery's fields as untrusted input (W5).
 * Returns how many routines it started.
 */
export async function fireGitHubRoutines(deps: RoutineFiringDeps, delivery: GitHubDelivery): Promise<number> {
  const repo = delivery.repo;
  if (repo === null) return 0;
  const now = deps.clock.now();
  const outcomes = await deps.store.transaction(async (tx) => {
    const bound = await tx.channelBindings.find('github', repo);
    if (bound === null) return [];
    const bindings = await tx.channelBindings.listForWorkspace(bound.workspaceId);
    const spaceRepos = bindings
      .filter((b) => b.platform === 'github' && b.spaceId === bound.spaceId)
      .map((b) => b.channelId);
    const routines = (await tx.routines.listForWorkspace(bound.workspaceId)).filter(
      (r) =>
        r.spaceId === bound.spaceId &&
        !r.paused &&
        r.trigger.kind === 'github' &&
        githubTriggerMatches(r.trigger, delivery, spaceRepos),
    );
    const claimed: { name: string; outcome: ClaimedFiring | RefusedDelivery | null }[] = [];
    for (const routine of routines) {
      const prompt = githubPrompt(routine.prompt, delivery);
      const outcome = await claimWebhookFiring(tx, deps, routine, { id: delivery.id, prompt }, now);
      claimed.push({ name: `${routine.space}/${routine.name}`, outcome });
    }
    return claimed;
  });
  const log = deps.logger.child({ component: 'routines', delivery: delivery.id, event: delivery.name, repo });
  let started = 0;
  for (const { name, outcome } of outcomes) {
    if (outcome === null) {
      log.info({ routine: name }, 'GitHub delivery already fired this routine; nothing runs again');
    } else if ('refused' in outcome) {
      log.warn({ routine: name, reason: outcome.refused }, 'GitHub delivery did not fire the routine');
      if (outcome.notice !== null) await postNotice(deps, outcome.notice);
    } else {
      await startFiring(deps, outcome);
      started += 1;
    }
  }
  return started;
}
