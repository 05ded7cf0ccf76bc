import type { Platform } from '../../model/platform';
import type { ChatPlatform } from '../../ports/chat-platform';
import type { Clock } from '../../ports/clock';
import type { JobQueue } from '../../ports/job-queue';
import type { Logger } from '../../ports/logger';
import type { Metrics } from '../../ports/metrics';
import type { Store } from '../../ports/store';
import type { WaitSignals } from '../../ports/wait-signals';
import type { RunJob } from '../run-job';

/**
 * What stopping a run uses of the engine (P15): the request is stored and its worker told
 * (`waits`); a run no process holds is ended here, what it left open closed on its
 * `platforms`, its lane's next run enqueued (`queue`).
 */
export interface StopDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  queue: JobQueue<RunJob>;
  waits: WaitSignals;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
  /** N5: this relay's name on the cards a stop redraws; null shows as "this relay". */
  relayName: string | null;
}
