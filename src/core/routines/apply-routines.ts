import type { Issue } from '../errors';
import type { RoutineRecord, RoutineSpec } from '../model/routines/routine';
import type { StoreTx } from '../ports/store';
import { type RoutineEntry, routineSpecOf } from './routine-entry';
import { nextTime } from './routine-schedule';

/** The part of the workspace file this reads: each space's name, participants and routines. */
export interface SpaceRoutines {
  name: string;
  participants?: string[] | undefined;
  /** P19: the space's GitHub repositories, when the file gives them. */
  repos?: string[] | undefined;
  routines?: RoutineEntry[] | undefined;
}

/** W1: what the deployment offers routines: whether GitHub's deliveries reach it (GITHUB_WEBHOOK_SECRET). */
export interface RoutineReceivers {
  github: boolean;
}

/** What an apply changed (the workspace's `ChangeReport`). */
interface Changes {
  created: string[];
  updated: string[];
}

/**
 * W1: refusals that need the database, the time or the deployment: the agent must take part in
 * the space (the file's `participants` when given, else the stored ones), an `at` must lie
 * ahead unless the stored routine already has that very time (so an exported file applies
 * again), and a `github` trigger needs GitHub's deliveries and a repository of the space.
 */
export async function routineIssues(
  tx: StoreTx,
  workspaceId: string | null,
  spaces: readonly SpaceRoutines[],
  now: Date,
  receivers: RoutineReceivers,
): Promise<Issue[]> {
  const agents = workspaceId === null ? [] : await tx.agents.list(workspaceId);
  const stored = workspaceId === null ? [] : await tx.routines.listForWorkspace(workspaceId);
  const issues: Issue[] = [];
  for (const [i, space] of spaces.entries()) {
    if (space.routines === undefined) continue;
    const inSpace = new Set(
      space.participants ?? (await storedParticipants(tx, workspaceId, space.name, agents)),
    );
    for (const [j, entry] of space.routines.entries()) {
      const path = `spaces[${i}].routines[${j}]`;
      if (!inSpace.has(entry.agent))
        issues.push({
          path: `${path}.agent`,
          message: `"${entry.agent}" does not take part in space "${space.name}"; add it to the space's participants`,
        });
      const before = stored.find((r) => r.space === space.name && r.name === entry.name);
      const sameAt = before?.trigger.kind === 'at' && before.trigger.at === entry.at;
      if (entry.at !== undefined && !sameAt && Date.parse(entry.at) <= now.getTime())
        issues.push({ path: `${path}.at`, message: `${entry.at} is in the past; give a time ahead` });
      if (entry.github !== undefined)
        issues.push(...(await githubIssues(tx, workspaceId, space, entry.github, path, receivers)));
    }
  }
  return issues;
}

/**
 * W1: a `github` routine is refused when no GitHub delivery can reach this Summon (it would
 * never fire), and its `repo` must be one of the space's (the file's `repos` when given, else
 * the stored ones); with no `repo`, the space must have at least one.
 */
async function githubIssues(
  tx: StoreTx,
  workspaceId: string | null,
  space: SpaceRoutines,
  github: NonNullable<RoutineEntry['github']>,
  path: string,
  receivers: RoutineReceivers,
): Promise<Issue[]> {
  if (!receivers.github)
    return [
      {
        path: `${path}.github`,
        message:
          "GitHub triggers need GitHub webhooks, and this Summon has none: set GITHUB_WEBHOOK_SECRET (and a GitHub App or GITHUB_TOKEN) and point the repository's webhook at /github/webhooks",
      },
    ];
  const stored = workspaceId === null ? null : await tx.spaces.findByName(workspaceId, space.name);
  const repos = (space.repos ?? stored?.repos ?? []).map((repo) => repo.toLowerCase());
  if (github.repo === undefined) {
    if (repos.length > 0) return [];
    return [
      {
        path: `${path}.github`,
        message: `space "${space.name}" has no repos; add the repository to its repos`,
      },
    ];
  }
  if (repos.includes(github.repo.toLowerCase())) return [];
  return [
    {
      path: `${path}.github.repo`,
      message: `"${github.repo}" is not one of space "${space.name}"'s repos (${repos.join(', ') || 'none'}); add it to the space's repos`,
    },
  ];
}

async function storedParticipants(
  tx: StoreTx,
  workspaceId: string | null,
  spaceName: string,
  agents: readonly { id: string; name: string }[],
): Promise<string[]> {
  if (workspaceId === null) return [];
  const space = await tx.spaces.findByName(workspaceId, spaceName);
  if (space === null) return [];
  const nameOf = new Map(agents.map((a) => [a.id, a.name]));
  return (await tx.spaces.listParticipants(space.id)).flatMap((p) =>
    p.kind === 'agent' && nameOf.has(p.agentId) ? [nameOf.get(p.agentId) ?? ''] : [],
  );
}

/**
 * W1: a space's `routines`, when given, is its whole list: routines are created or replaced by
 * name, and one left out is deleted. Runs after the spaces and agents exist; `routineIssues`
 * has refused what cannot be stored. W2: a new or re-timed routine is next due at its next
 * time after `now`; an unchanged one keeps the time it was due (W3 counts what was missed).
 */
export async function applyRoutines(
  tx: StoreTx,
  workspaceId: string,
  spaces: readonly SpaceRoutines[],
  now: Date,
  report: Changes,
): Promise<void> {
  const stored = await tx.routines.listForWorkspace(workspaceId);
  const agents = new Map((await tx.agents.list(workspaceId)).map((a) => [a.name, a.id]));
  for (const space of spaces) {
    if (space.routines === undefined) continue;
    const record = await tx.spaces.findByName(workspaceId, space.name);
    if (record === null) continue;
    const current = new Map(stored.filter((r) => r.spaceId === record.id).map((r) => [r.name, r]));
    for (const entry of space.routines) {
      const spec = routineSpecOf(entry);
      const before = current.get(spec.name);
      current.delete(spec.name);
      if (before !== undefined && sameSpec(before, spec)) continue;
      // A resumed routine counts from now: what fell due while paused was not missed (W3).
      const retimed =
        before === undefined ||
        canonical(before.trigger) !== canonical(spec.trigger) ||
        (before.paused && !spec.paused);
      const nextDueAt = retimed ? nextTime(spec.trigger, now) : before.nextDueAt;
      const target = { workspaceId, spaceId: record.id, agentId: agents.get(spec.agent) ?? '' };
      await tx.routines.save(target, spec, nextDueAt);
      (before === undefined ? report.created : report.updated).push(`routine ${space.name}/${spec.name}`);
    }
    for (const gone of current.values()) {
      await tx.routines.remove(gone.id);
      report.updated.push(`routine ${space.name}/${gone.name} (deleted)`);
    }
  }
}

const SPEC_KEYS = ['name', 'agent', 'prompt', 'trigger', 'onMissed', 'budget', 'paused'] as const;

/** The database gives jsonb keys back in its own order; the values are what count. */
const sameSpec = (a: RoutineRecord, b: RoutineSpec): boolean =>
  SPEC_KEYS.every((key) => canonical(a[key]) === canonical(b[key]));

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
