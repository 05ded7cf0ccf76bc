import type { ApprovalDetails } from '../model/approval-record';
import type { RefUpdate } from '../model/git-gateway';
import { isTag, refLabel, updateKind } from './ref-updates';

/** What the gateway learned about one update from the objects (null: it could not tell). */
export interface UpdateFacts {
  /** G4: a non-fast-forward update (the old commit is not an ancestor of the new one). */
  force: boolean | null;
  /** `<short id> <subject>` of the commits the update adds, newest first (capped). */
  commits: readonly string[];
  /** How many commits it adds in all, when more than `commits` lists. */
  totalCommits?: number;
}

const short = (id: string) => id.slice(0, 7);

/** The words that name what an update does: force-push, deletion, tag (G4). */
export function updateTraits(update: RefUpdate, facts: UpdateFacts | undefined): string[] {
  const traits: string[] = [];
  const kind = updateKind(update);
  if (kind === 'delete') traits.push(isTag(update) ? 'DELETES TAG' : 'DELETES BRANCH');
  else if (isTag(update)) traits.push(kind === 'create' ? 'new tag' : 'MOVES TAG');
  else if (kind === 'create') traits.push('new branch');
  if (kind === 'update' && facts?.force === true) traits.push('FORCE-PUSH (not a fast-forward)');
  if (kind === 'update' && (facts === undefined || facts.force === null) && !isTag(update)) {
    traits.push('fast-forward not verified');
  }
  return traits;
}

/**
 * G4: the approval card of a push: repository, branch, old → new commit, what kind of update
 * (force-push, deletion, tag named), and the commits it adds.
 */
export function pushApprovalDetails(
  repo: string,
  updates: readonly RefUpdate[],
  facts: ReadonlyMap<string, UpdateFacts>,
): ApprovalDetails {
  const lines: string[] = [`repository ${repo}`];
  const summaryTraits = new Set<string>();
  for (const update of updates) {
    const f = facts.get(update.ref);
    const traits = updateTraits(update, f);
    for (const flag of summaryFlags(update, f)) summaryTraits.add(flag);
    const kind = updateKind(update);
    const from = kind === 'create' ? '(new)' : short(update.oldId);
    const to = kind === 'delete' ? '(deleted)' : short(update.newId);
    lines.push(
      `${refLabel(update.ref)}: ${from} → ${to}${traits.length > 0 ? ` — ${traits.join(', ')}` : ''}`,
    );
    for (const commit of f?.commits ?? []) lines.push(`  ${commit}`);
    const more = (f?.totalCommits ?? 0) - (f?.commits.length ?? 0);
    if (more > 0) lines.push(`  … and ${more} more commit${more === 1 ? '' : 's'}`);
  }
  const refs = updates.map((u) => refLabel(u.ref)).join(', ');
  const flagged = summaryTraits.size > 0 ? ` (${[...summaryTraits].join(', ')})` : '';
  return { summary: `push to ${repo} ${refs}${flagged}`, lines };
}

/** The risky kinds, named in the card's one-line summary too. */
function summaryFlags(update: RefUpdate, facts: UpdateFacts | undefined): string[] {
  const kind = updateKind(update);
  if (kind === 'delete') return ['DELETES'];
  if (kind === 'update' && isTag(update)) return ['MOVES TAG'];
  if (kind === 'update' && facts?.force === true) return ['FORCE-PUSH'];
  return [];
}
