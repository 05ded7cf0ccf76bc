import type { Platform } from '../../model/platform';
import type { ChatPlatform } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { PairRateLimiter } from '../../ports/pair-rate-limiter';
import type { RunnerResolver } from '../../ports/runner';
import type { Store } from '../../ports/store';
import type { WaitSignals } from '../../ports/wait-signals';
import type { NotePosting } from '../cards/post-note';
import type { ChecksDeps } from '../turn-checks-hooks';
import type { LocalLanes, WakeRunDeps } from './wake-run';

/**
 * The routing room's dependencies, each the few ports one step uses (the engine hands in its
 * whole deps, which has them all). Inside the routing transaction (P6, P8, M1–M12, N13, P16):
 * the time runs and answers are stamped with, and which harness an agent runs (A9: only the
 * built-in one is steered).
 */
export interface RouteDeps {
  clock: Clock;
  runners: RunnerResolver;
  /** P24: whose groups admit a person without an entry (`ChatPlatform.groups`). */
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  /** T3: this process's lanes, which may claim a new thread's run with its routing; absent: none. */
  localLanes?: LocalLanes;
}

/**
 * After the routing committed: the refusal, hints and help posted, a question card redrawn
 * and its parked turn requeued (N13, T2), a steered turn told (P16), the runs woken (T3).
 */
export interface AfterRoutingDeps extends WakeRunDeps, ChecksDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  waits: WaitSignals;
  clock: Clock;
  logger: Logger;
  /** P24: the people told privately that no group admits them (keys of platform, team, user). */
  accessTold?: Set<string>;
}

/** A person's message, routed in its own transaction and then followed up. */
export type ReceiveDeps = RouteDeps & AfterRoutingDeps;

/** M14–M22: the wakes a reply plans (M20's pair limit), their notes posted (N1) and runs woken (T3). */
export interface WakeAfterTurnDeps extends WakeRunDeps, NotePosting {
  clock: Clock;
  rateLimiter: PairRateLimiter;
}

/** P16, T1: a running turn's steering feed: read from the store after an announcement. */
export interface SteeringFeedDeps {
  store: Store;
  waits: WaitSignals;
}
