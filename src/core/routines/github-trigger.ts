import type { GitHubTrigger } from '../model/routines/routine';
import type { GitHubDelivery } from '../ports/github-events';
import { githubFields } from './github-fields';

/** W1: `<event>` or `<event>.<action>`, as GitHub names them (`push`, `release.published`). */
export const GITHUB_EVENT_PATTERN = /^[a-z_]{1,50}(\.[a-z_]{1,50})?$/;

/** W1: `owner/name`, as a space's `repos` writes it. */
export const GITHUB_REPO_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * W1: the filter vocabulary, by event: each key is an exact match on a named field of the
 * delivery (`githubFields` says where each is read). An event not listed takes no filters (its
 * action is the only thing beside the repository to match on).
 */
export const GITHUB_FILTERS: Readonly<Record<string, readonly string[]>> = {
  check_suite: ['conclusion', 'branch', 'app'],
  check_run: ['conclusion', 'branch', 'app', 'check'],
  workflow_run: ['conclusion', 'branch', 'workflow'],
  release: ['tag'],
  push: ['ref', 'branch', 'tag'],
  pull_request: ['branch'],
};

const ALL_FILTERS = [...new Set(Object.values(GITHUB_FILTERS).flat())];

/** W1: the trigger's event name without its action (`release` of `release.published`). */
export const eventName = (event: string): string => event.split('.', 1)[0] ?? event;

/**
 * W1: why a `github` trigger is refused, each with the path under `github` it is about: an
 * event that is not `<event>[.<action>]`, a repository that is not `owner/name`, a filter key
 * outside the vocabulary or not carried by that event, an empty filter value.
 */
export function githubTriggerProblems(github: {
  event: string;
  repo?: string | undefined;
  filters?: Record<string, string> | undefined;
}): { path: string[]; message: string }[] {
  const problems: { path: string[]; message: string }[] = [];
  if (!GITHUB_EVENT_PATTERN.test(github.event))
    problems.push({
      path: ['event'],
      message: `"${github.event}" is not a GitHub event: write "<event>.<action>" such as "release.published" or "check_suite.completed", or an event without actions such as "push"`,
    });
  if (github.repo !== undefined && !GITHUB_REPO_PATTERN.test(github.repo))
    problems.push({ path: ['repo'], message: 'must be a GitHub repository "owner/name"' });
  const name = eventName(github.event);
  const allowed = GITHUB_FILTERS[name] ?? [];
  for (const [key, value] of Object.entries(github.filters ?? {})) {
    const path = ['filters', key];
    if (!ALL_FILTERS.includes(key))
      problems.push({ path, message: `unknown filter "${key}"; filters are ${ALL_FILTERS.join(', ')}` });
    else if (!allowed.includes(key))
      problems.push({
        path,
        message: `"${name}" deliveries have no "${key}"; ${allowed.length === 0 ? `"${name}" takes no filters` : `its filters are ${allowed.join(', ')}`}`,
      });
    else if (value === '') problems.push({ path, message: 'must not be empty' });
  }
  return problems;
}

/**
 * W1, W2: whether a verified delivery fires the trigger: the same event (and action, when the
 * trigger names one), its repository when it names one, and every filter equal to the named
 * field. `spaceRepos` are the repositories of the routine's space (lower-cased).
 */
export function githubTriggerMatches(
  trigger: GitHubTrigger,
  delivery: Pick<GitHubDelivery, 'name' | 'action' | 'repo' | 'payload'>,
  spaceRepos: readonly string[],
): boolean {
  const [name, action] = trigger.event.split('.');
  if (delivery.name !== name) return false;
  if (action !== undefined && delivery.action !== action) return false;
  if (delivery.repo === null) return false;
  if (trigger.repo === null ? !spaceRepos.includes(delivery.repo) : trigger.repo !== delivery.repo)
    return false;
  const fields = githubFields(delivery.name, delivery.payload);
  return Object.entries(trigger.filters).every(([key, value]) => fields[key] === value);
}
