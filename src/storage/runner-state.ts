/**
 * T3: what a transaction keeps beside its query runner — its owed statements, its reads
 * remembered and asked ahead, its last send, its owed admissions, its role — forgotten as soon
 * as the runner is released (`forgetRunner`, called by `typeorm-store.ts`), not left to the
 * garbage collector.
 *
 * A `WeakMap` alone forgets it too, but late. V8's young-generation collection takes the values
 * of a long-lived `WeakMap` as reachable: an entry whose value reaches its key (state that holds
 * its runner, as owed statements do) keeps both alive, and everything the transaction hangs from
 * them — its rows, statements, repositories — until a full collection. At 200 replies a second
 * that moved about 45 KB a reply into the old generation, and brought a full collection, its
 * marking on every CPU, every few seconds (`bench/README.md`, "Full collections, and what fed
 * them"). The `WeakMap` stays, for a runner abandoned without its release.
 */
export class RunnerState<Value> {
  private readonly byRunner = new WeakMap<object, Value>();

  constructor() {
    forgetters.push((runner) => this.delete(runner));
  }

  get(runner: object): Value | undefined {
    return this.byRunner.get(runner);
  }

  has(runner: object): boolean {
    return this.byRunner.has(runner);
  }

  set(runner: object, value: Value): void {
    if (!this.byRunner.has(runner)) held += 1;
    this.byRunner.set(runner, value);
  }

  delete(runner: object): void {
    if (this.byRunner.delete(runner)) held -= 1;
  }
}

const forgetters: ((runner: object) => void)[] = [];
/** Entries set and not yet forgotten, over every `RunnerState` (one left to the collector stays counted). */
let held = 0;

/** How many runners' states are held now: back where it was once every transaction is over. */
export const runnerStatesHeld = (): number => held;

/** Everything every `RunnerState` holds for `runner`, dropped: its transaction is over. */
export function forgetRunner(runner: object): void {
  for (const forget of forgetters) forget(runner);
}
