import type { RoutineMaker, RoutineRecord, RoutineSpec } from '../model/routines/routine';
import type { FiringHistoryEntry, FiringOutcome, RoutineFiring } from '../model/routines/routine-firing';
import type { Spent } from '../model/usage/budget';

/** W1: where a routine is stored: its space and agent by id, the spec's names checked. */
export interface RoutineTarget {
  workspaceId: string;
  spaceId: string;
  agentId: string;
}

/** W2: a firing about to be claimed. */
export interface NewFiring {
  workspaceId: string;
  routineId: string;
  scheduledFor: Date;
  firedAt: Date;
  missed: readonly Date[];
  outcome: FiringOutcome;
  reason: string | null;
  /** W5: a webhook delivery's id (P6: de-duplicated per routine). */
  deliveryId?: string;
}

/** W1, W2: a space's routines and their firings. */
export interface RoutineRepository {
  /** W1: one workspace's routines by space and name, in a system transaction too (apply, export). */
  listForWorkspace(workspaceId: string): Promise<RoutineRecord[]>;
  /**
   * W1: creates the routine or replaces it by (space, name); `nextDueAt` as the scheduler counts
   * it; `madeBy` for one confirmed from chat (a replacement keeps the maker it had).
   */
  save(
    target: RoutineTarget,
    spec: RoutineSpec,
    nextDueAt: Date | null,
    madeBy?: RoutineMaker | null,
  ): Promise<RoutineRecord>;
  /** W1: deletes a routine by id (its history goes with it). */
  remove(routineId: string): Promise<void>;
  /**
   * W2 (system transaction): up to `limit` unpaused routines of every workspace due by `now`,
   * locked until the transaction ends; rows another transaction holds are skipped, not waited for.
   */
  lockDue(now: Date, limit: number): Promise<RoutineRecord[]>;
  /** W2 (system transaction): the earliest time any unpaused routine is due, or null. */
  earliestDue(): Promise<Date | null>;
  setNextDue(routineId: string, nextDueAt: Date | null): Promise<void>;
  /**
   * W2, W4: locks the routine's row until the transaction ends, so concurrent deliveries for one
   * routine are claimed in turn (each sees the other's firing); false when it is gone.
   */
  lockOne(routineId: string): Promise<boolean>;
  /** W5: pauses or resumes, with the time it is next due. */
  setPaused(routineId: string, paused: boolean, nextDueAt: Date | null): Promise<void>;
  /** W5: the routine's sealed webhook secret, or null when none was made. */
  webhookSecret(routineId: string): Promise<string | null>;
  setWebhookSecret(routineId: string, sealed: string): Promise<void>;
  /**
   * W2, W5: claims the firing; null when one for that routine and time, or that delivery,
   * exists already (it fires once).
   */
  claimFiring(firing: NewFiring): Promise<RoutineFiring | null>;
  updateFiring(
    firingId: string,
    patch: { outcome: FiringOutcome; reason?: string | null; conversationId?: string; runId?: string },
  ): Promise<void>;
  /**
   * W2 (system transaction): firings left `claimed` since before `before` (their process died
   * before posting), re-leased to the caller by moving `fired_at` to `now`.
   */
  leaseStaleClaims(before: Date, now: Date, limit: number): Promise<RoutineFiring[]>;
  findById(routineId: string): Promise<RoutineRecord | null>;
  /** W4: the routine whose firing started this run, or null for any other run. */
  ofRun(runId: string): Promise<{ space: string; name: string; madeBy: RoutineMaker | null } | null>;
  /** W4, O3: what the runs this routine's firings started have spent since `since`. */
  spentByRoutine(routineId: string, since: Date): Promise<Spent>;
  /** W2: a routine's newest firings first, with their runs' status and reply reference. */
  history(routineId: string, limit: number): Promise<FiringHistoryEntry[]>;
}
