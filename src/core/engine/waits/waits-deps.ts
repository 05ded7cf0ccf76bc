import type { Platform } from '../../model/platform';
import type { ChatPlatform } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { JobQueue } from '../../ports/job-queue';
import type { Logger } from '../../ports/logger';
import type { Store } from '../../ports/store';
import type { TurnChecks } from '../../ports/turn-checks';
import type { WaitSignals } from '../../ports/wait-signals';
import type { RunJob } from '../run-job';
import type { TurnSlots } from './turn-slots';

/**
 * What a run's waits use of the engine (T1: woken by `waits`, holding no slot meanwhile; T2:
 * parked turns go back to the `queue`; G4: an approval's card is edited on its `platforms`).
 */
export interface WaitsDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  queue: JobQueue<RunJob>;
  waits: WaitSignals;
  slots: TurnSlots;
  clock: Clock;
  logger: Logger;
  /** P21: an approval a waiting call opens shows as a check run too (GitHub); absent: only its card. */
  checks?: TurnChecks;
}
