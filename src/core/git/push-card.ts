import type { ApprovalDetails } from '../model/approvals/approval-record';
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
 * (force-push, deletion, tag named), and the commits it adds. Past the first refs the card
 * counts the rest by kind, and the summary's risky flags cover every ref.
 */
export function pushApprovalDetails(
  repo: string,
  updates: readonly RefUpdate[],
  facts: ReadonlyMap<string, UpdateFacts>,
): ApprovalDetails {
  const lines: string[] = [`repository ${repo}`];
  const summaryTraits = new Set<string>();
  const hiddenTraits = new Map<string, number>();
  updates.forEach((update, index) => {
    const f = facts.get(update.ref);
    const traits = updateTraits(update, f);
    for (const flag of summaryFlags(update, f)) summaryTraits.add(flag);
    if (index >= CARD_REFS) {
      for (const trait of traits.length > 0 ? traits : ['update']) {
        hiddenTraits.set(trait, (hiddenTraits.get(trait) ?? 0) + 1);
      }
      return;
    }
    const kind = updateKind(update);
    const from = kind === 'create' ? '(new)' : short(update.oldId);
    const to = kind === 'delete' ? '(deleted)' : short(update.newId);
    lines.push(
      `${refLabel(update.ref)}: ${from} → ${to}${traits.length > 0 ? ` — ${traits.join(', ')}` : ''}`,
    );
    for (const commit of f?.commits ?? []) lines.push(`  ${commit}`);
    const more = (f?.totalCommits ?? 0) - (f?.commits.length ?? 0);
    if (more > 0) lines.push(`  … and ${more} more commit${more === 1 ? '' : 's'}`);
  });
  if (updates.length > CARD_REFS) {
    const kinds = [...hiddenTraits].map(([trait, count]) => `${trait} ×${count}`).join(', ');
    lines.push(`… and ${andMore(updates.length - CARD_REFS)}: ${kinds}`);
  }
  const named = updates.slice(0, SUMMARY_REFS).map((u) => refLabel(u.ref));
  const refs =
    updates.length > SUMMARY_REFS
      ? `${named.join(', ')} and ${andMore(updates.length - SUMMARY_REFS)}`
      : named.join(', ');
  const flagged = summaryTraits.size > 0 ? ` (${[...summaryTraits].join(', ')})` : '';
  return { summary: `push to ${repo} ${refs}${flagged}`, lines };
}

/** A long push names its first refs and says how many more there are, never a bare "…". */
const SUMMARY_REFS = 10;
const CARD_REFS = 20;
const andMore = (count: number) => `${count} more ref${count === 1 ? '' : 's'}`;

/** The risky kinds, named in the card's one-line summary too. */
function summaryFlags(update: RefUpdate, facts: UpdateFacts | undefined): string[] {
  const kind = updateKind(update);
  if (kind === 'delete') return ['DELETES'];
  if (kind === 'update' && isTag(update)) return ['MOVES TAG'];
  if (kind === 'update' && facts?.force === true) return ['FORCE-PUSH'];
  return [];
}
