import type { OutageWatch } from '../../outage/outage-watch';
import type { RunnerResolver } from '../../ports/runner';
import type { EngineTimings } from '../engine-timings';
import type { StopDeps } from '../stop/stop-deps';

/**
 * What recovery uses of the engine (A12, T2): what stopping a run uses (a run it ends is closed
 * the same way), when a silent run is dead (`timings`), whether silence fell in an outage, and
 * whether an agent's runner checkpoints its turns (`runners`: only those run again).
 */
export interface RecoveryDeps extends StopDeps {
  timings: EngineTimings;
  /** T2, A9: the runner of an agent, asked whether it checkpoints (a built-in loop). */
  runners: RunnerResolver;
  /** T2: no run is judged dead for silence during a database or Redis outage. */
  outage?: OutageWatch;
}
