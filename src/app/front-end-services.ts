import { httpDownloader } from '../adapters/attachments/http-downloader';
import { leanFetch } from '../adapters/http/lean-fetch';
import type { RunActivityLookup } from '../core/agents/agent-roster';
import { SummonCommands } from '../core/commands/summon-commands';
import { StoreChatDirectory } from '../core/directory/store-chat-directory';
import { RetryingStore } from '../core/outage/retrying-store';
import { type OutboxBackoff, OutboxDeliverer } from '../core/outbox/outbox-deliverer';
import type { BoundedDownloader } from '../core/ports/bounded-downloader';
import type { ChatDirectory } from '../core/ports/chat-directory';
import type { CommandService } from '../core/ports/command-service';
import type { Logger } from '../core/ports/logger';
import type { Metrics } from '../core/ports/metrics';
import type { OutboxFactory } from '../core/ports/outbox';
import type { Store } from '../core/ports/store';

/** The core services a chat front end is handed (bots translate; they build none of these). */
export interface FrontEndServices {
  /** P1, M11, P11, App Home: the lookups over the store. */
  directory: ChatDirectory;
  /**
   * P7, T2: the same lookups for outgoing calls (a post's channel owner, its workspace), which
   * wait out a database outage as the outbox that stores the call does. Interactions keep the
   * plain directory: a click must be answered within the platform's seconds.
   */
  outgoingDirectory: ChatDirectory;
  /** `/summon`, the same on every platform. */
  commands: CommandService;
  /** P7: each platform's outbox around the sender its front end builds. */
  outbox: OutboxFactory;
  /** P13: attachment downloads (the front ends choose the links and credentials). */
  downloads: BoundedDownloader;
  /**
   * T3: how a front end's platform calls are made, each failing once its connection stays
   * silent `idleTimeoutMs` (`lean-fetch.ts`: a call's objects die with it).
   */
  httpFetch: (idleTimeoutMs: number) => typeof fetch;
}

/** Builds the services of the chat front ends over one store (production, test harnesses, benchmarks). */
export function frontEndServices(deps: {
  store: Store;
  logger: Logger;
  /** P7: the outbox's backlog, retries and 429s (`/metrics`). */
  metrics?: Metrics | undefined;
  /** A13: the activity of runs this process executes (the engine's `RunActivityBoard`), for presence on App Home. */
  activity?: RunActivityLookup | undefined;
  /** P7: the outbox's backoff for 5xx and network errors and when it gives up (`SUMMON_OUTBOX_GIVE_UP_HOURS`; tests shorten the backoff). */
  outboxBackoff?: Partial<OutboxBackoff> | undefined;
}): FrontEndServices {
  const { store, logger, metrics, activity, outboxBackoff } = deps;
  return {
    directory: new StoreChatDirectory(store, activity),
    outgoingDirectory: new StoreChatDirectory(RetryingStore.over(store), activity),
    commands: new SummonCommands(store),
    outbox: (platform, sender) =>
      new OutboxDeliverer({
        store,
        platform,
        sender,
        logger: logger.child({ component: `${platform}-outbox` }),
        metrics,
        ...(outboxBackoff === undefined ? {} : { backoff: outboxBackoff }),
      }),
    downloads: httpDownloader,
    httpFetch: (idleTimeoutMs) => leanFetch({ idleTimeoutMs }),
  };
}
