import type { RoutineRecord, RoutineSpec } from '../model/routines/routine';

/** W1: where a routine is stored: its space and agent by id, the spec's names checked. */
export interface RoutineTarget {
  workspaceId: string;
  spaceId: string;
  agentId: string;
}

/** W1, W2: a space's routines. */
export interface RoutineRepository {
  /** W1: one workspace's routines by space and name, in a system transaction too (apply, export). */
  listForWorkspace(workspaceId: string): Promise<RoutineRecord[]>;
  /** W1: creates the routine or replaces it by (space, name); `nextDueAt` as the scheduler counts it. */
  save(target: RoutineTarget, spec: RoutineSpec, nextDueAt: Date | null): Promise<RoutineRecord>;
  /** W1: deletes a routine by id (its history goes with it). */
  remove(routineId: string): Promise<void>;
}
