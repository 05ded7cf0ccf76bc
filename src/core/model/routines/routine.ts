import type { BudgetPeriod, BudgetUnit } from '../usage/budget';

/**
 * W1: a routine is owned by a space: an agent, a prompt and exactly one trigger. W3: what a
 * firing missed while nothing ran does — `runOnce` fires once for all of them, `skip` none.
 */
export const ROUTINE_ON_MISSED = ['runOnce', 'skip'] as const;
export type RoutineOnMissed = (typeof ROUTINE_ON_MISSED)[number];

export const ROUTINE_TRIGGER_KINDS = ['schedule', 'at', 'webhook', 'github'] as const;
export type RoutineTriggerKind = (typeof ROUTINE_TRIGGER_KINDS)[number];

/**
 * W1: a GitHub delivery that fires a routine: `event` is `<event>` or `<event>.<action>`
 * (`release.published`), `repo` one of the space's repositories (lower-cased; null: any of
 * them), `filters` exact matches on named fields of the payload (`conclusion: failure`).
 */
export interface GitHubTrigger {
  kind: 'github';
  event: string;
  repo: string | null;
  filters: Record<string, string>;
}

/** W1: when a routine fires. */
export type RoutineTrigger =
  | { kind: 'schedule'; cron: string; timezone: string }
  | { kind: 'at'; at: string }
  | { kind: 'webhook' }
  | GitHubTrigger;

/** O3: a routine's own spending limit, per UTC day or month (the routine is its scope). */
export interface RoutineBudget {
  per: BudgetPeriod;
  unit: BudgetUnit;
  limit: number;
}

/** W1: what the workspace file (or a confirmed card) declares; names, not ids. */
export interface RoutineSpec {
  name: string;
  agent: string;
  prompt: string;
  trigger: RoutineTrigger;
  onMissed: RoutineOnMissed;
  budget: RoutineBudget | null;
  paused: boolean;
}

/** W1, W4: who made a routine from chat: the proposing agent and the member who confirmed it. */
export interface RoutineMaker {
  proposedBy: string;
  confirmedBy: string;
}

/** W1: an agent's proposal, as its card keeps it until a person confirms or cancels it. */
export interface RoutineProposal {
  spaceId: string;
  space: string;
  spec: RoutineSpec;
  /** The proposing agent's name. */
  proposedBy: string;
}

/** W1: a stored routine with its space and agent resolved. */
export interface RoutineRecord extends RoutineSpec {
  id: string;
  workspaceId: string;
  spaceId: string;
  space: string;
  agentId: string;
  /** W2: the next scheduled time not yet fired; null when nothing is scheduled (webhook, `at` done). */
  nextDueAt: Date | null;
  /** W1, W4: null for a routine of the workspace file. */
  madeBy: RoutineMaker | null;
}
