import type { StopDeps } from '../stop/stop-deps';

/**
 * What a person's click uses of the engine (G4, N7, N13, P15): the stores and cards a decision,
 * an answer, a fold or a Stop writes and redraws, and the waits it wakes. A Stop's needs are
 * the widest (its lane's next run is enqueued), and cover the others'.
 */
export type ActionDeps = StopDeps;
