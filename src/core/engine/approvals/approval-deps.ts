import type { Platform } from '../../model/platform';
import type { ChatPlatform } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { JobQueue } from '../../ports/job-queue';
import type { Logger } from '../../ports/logger';
import type { Store } from '../../ports/store';
import type { TurnChecks } from '../../ports/turn-checks';
import type { WaitSignals } from '../../ports/wait-signals';
import type { RunJob } from '../run-job';

/**
 * What approvals use of the engine (G4): stored rows, cards on the `platforms`, the waiting
 * call told of a decision (`waits`), a turn parked on it sent back to the `queue` (T2).
 */
export interface ApprovalDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  queue: JobQueue<RunJob>;
  waits: WaitSignals;
  clock: Clock;
  logger: Logger;
  /** P21: approvals also shown as check runs (GitHub); absent: only the card. */
  checks?: TurnChecks;
}
