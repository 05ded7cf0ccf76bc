/** T3: active turns per process unless configured (`SUMMON_CONCURRENCY`): model-bound turns are I/O. */
export const DEFAULT_CONCURRENCY = 64;

/**
 * T1: how many turns a process may hold waiting (on a person, another agent, a push) on top
 * of its active ones; the queue's concurrency is the sum, so waiting turns never keep it from
 * starting new ones.
 */
export const WAITING_TURNS = 1000;
