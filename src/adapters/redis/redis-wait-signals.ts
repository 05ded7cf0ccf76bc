import type { Redis } from 'ioredis';
import { type Logger, silentLogger } from '../../core/ports/logger';
import type { WaitSignals } from '../../core/ports/wait-signals';

/** How long a new wait waits for its SUBSCRIBE before going on without it. */
const SUBSCRIBE_WAIT_MS = 2000;

export interface RedisWaitSignalsOptions {
  /** Prepended to every channel; tests use a fresh one per file. */
  channelPrefix?: string;
  logger?: Logger;
}

/**
 * T1 across processes: a notification is published on Redis, so a click handled by one
 * process wakes a turn waiting in another. One subscriber connection (a duplicate of the
 * given client, closed by `close()`) carries every topic this process waits on. Waiters of
 * this process are also told directly, so they never depend on the round trip; after a
 * reconnect every waiter looks again, since notifications may have been missed meanwhile.
 */
export class RedisWaitSignals implements WaitSignals {
  private readonly subscriber: Redis;
  private readonly listeners = new Map<string, Set<() => void>>();
  /** The SUBSCRIBE of each topic, which a later waiter of the same topic awaits too. */
  private readonly subscribed = new Map<string, Promise<unknown>>();
  private readonly prefix: string;
  private readonly log: Logger;
  private connectedOnce = false;

  constructor(
    private readonly publisher: Redis,
    options: RedisWaitSignalsOptions = {},
  ) {
    this.prefix = `${options.channelPrefix ?? 'summon:'}wait:`;
    this.log = (options.logger ?? silentLogger).child({ component: 'wait-signals' });
    this.subscriber = publisher.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true });
    this.subscriber.on('message', (channel: string) => {
      if (channel.startsWith(this.prefix)) this.tell(channel.slice(this.prefix.length));
    });
    this.subscriber.on('ready', () => {
      if (this.connectedOnce) {
        this.log.info({ topics: this.listeners.size }, 'reconnected; every wait looks again');
        for (const topic of [...this.listeners.keys()]) this.tell(topic);
      }
      this.connectedOnce = true;
    });
    this.subscriber.on('error', (error: Error) => this.log.warn({ err: error }, 'wait subscriber error'));
  }

  async notify(topic: string): Promise<void> {
    this.tell(topic);
    await this.publisher.publish(this.prefix + topic, '1').catch((error: unknown) => {
      // The state is stored: a waiter elsewhere finds it at its next look (a reconnect, its expiry).
      this.log.warn({ err: error, topic }, 'could not publish a wait notification');
    });
  }

  async subscribe(topic: string, onSignal: () => void): Promise<() => void> {
    const listener = () => onSignal();
    let set = this.listeners.get(topic);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(topic, set);
    }
    set.add(listener);
    if (set.size === 1) {
      const subscribing = this.subscriber.subscribe(this.prefix + topic).catch((error: unknown) => {
        this.log.warn({ err: error, topic }, 'could not subscribe; the wait relies on its own checks');
      });
      this.subscribed.set(topic, subscribing);
    }
    // Redis away: the wait goes on after a bound; once the SUBSCRIBE lands its waiters look
    // again, so a notification sent in between is not missed.
    const subscribing = this.subscribed.get(topic) ?? Promise.resolve();
    const landed = await Promise.race([
      subscribing.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), SUBSCRIBE_WAIT_MS).unref()),
    ]);
    if (!landed) void subscribing.then(() => this.tell(topic));
    const own = set;
    return () => {
      own.delete(listener);
      if (own.size > 0 || this.listeners.get(topic) !== own) return;
      this.listeners.delete(topic);
      this.subscribed.delete(topic);
      this.subscriber.unsubscribe(this.prefix + topic).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  private tell(topic: string): void {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) listener();
  }
}
