/**
 * T4: how busy this process has just been. A front end's acks and routing share one event
 * loop; routing asks this before a batch so that, while acks keep coming and the loop is
 * already busy, it lets them go first.
 */
export interface LoopLoad {
  /** The share (0–1) of the last moments (about a tenth of a second) the loop spent working. */
  busy(): number;
}

/** No measure: never busy (routing waits only for the acks' writes). */
export const idleLoop: LoopLoad = { busy: () => 0 };
