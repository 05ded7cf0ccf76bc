/**
 * T1, T3: the bound on agents' processes (`bash` calls, CLI agents) running at once
 * (`SUMMON_PROCESS_CONCURRENCY`), its slots held per run. A process that waits for a person —
 * a `git push` held at the gateway, a CLI agent's PreToolUse hook waiting for its decision —
 * is alive but idle: its run gives a slot back while it waits, so the bound counts only the
 * processes that run.
 */
export interface ProcessSlots {
  /**
   * T1: runs `wait`, a wait of run `runId` for a person, with one of the slots its processes
   * hold here given back; before this resolves the slot is taken again, in turn (never ahead
   * of a process already waiting for one). Waits of one run nest and overlap: each gives back
   * one slot while the run holds one and takes back what it gave. A run with no process here
   * just waits. When `signal` aborts this resolves without waiting for the slot (nothing runs
   * on for that waiter); the run's process still takes its slot again, in turn, while it lives.
   */
  suspendWhile<T>(runId: string, wait: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/** No bound to give slots back to (no process of Summon's own waits here): the wait as it is. */
export const noProcessSlots: ProcessSlots = {
  suspendWhile: (_runId, wait) => wait(),
};
