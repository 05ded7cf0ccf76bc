import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  boundedCard,
  type LiveCard,
  type LiveCardChange,
  type LiveCardRelay,
} from '../../core/ports/live-card-relay';
import { type Logger, silentLogger } from '../../core/ports/logger';
import { LiveCardCoalescer } from './live-card-coalescer';

export interface RedisLiveCardRelayOptions {
  /** Prepended to both channels; tests use a fresh one per file. */
  channelPrefix?: string;
  logger?: Logger;
  /** A run's changes sent at most once per this long (default 1 s). */
  coalesceMs?: number;
  /** How often a watching process says it still watches (default 10 s); three missed end it. */
  watchEveryMs?: number;
}

/** What crosses on the changes channel: who sent it, so a process skips its own. */
interface ChangeMessage {
  from: string;
  change: LiveCardChange;
}

/**
 * O5 across processes over Redis pub/sub. A process whose console is watched subscribes to the
 * changes channel and says so on the watch channel (at once, asking for every card, then every
 * `watchEveryMs`); a process sends its cards' changes only while someone said so lately, each
 * run coalesced to one message a window, each card bounded (`boundedCard`). Nothing is stored
 * in Redis and nothing in the database: a viewer that misses a change gets the next one.
 */
export class RedisLiveCardRelay implements LiveCardRelay {
  private readonly subscriber: Redis;
  private readonly id = randomUUID();
  private readonly changesChannel: string;
  private readonly watchChannel: string;
  private readonly log: Logger;
  private readonly watchEveryMs: number;
  private readonly coalescer: LiveCardCoalescer;
  /** This process's open cards, newest state: what a new watcher is sent at once. */
  private readonly latest = new Map<string, LiveCard>();
  private readonly watchers = new Set<(change: LiveCardChange) => void>();
  private watchedUntil = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private connectedOnce = false;

  constructor(
    private readonly publisher: Redis,
    options: RedisLiveCardRelayOptions = {},
  ) {
    const prefix = `${options.channelPrefix ?? 'summon:'}live-cards:`;
    this.changesChannel = `${prefix}changes`;
    this.watchChannel = `${prefix}watch`;
    this.log = (options.logger ?? silentLogger).child({ component: 'live-cards' });
    this.watchEveryMs = options.watchEveryMs ?? 10_000;
    this.coalescer = new LiveCardCoalescer((card) => this.send({ card }), options.coalesceMs ?? 1000);
    this.subscriber = publisher.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true });
    this.subscriber.on('message', (channel: string, message: string) => this.received(channel, message));
    this.subscriber.on('ready', () => {
      // Changes may have been missed while away: a watching process asks for every card again.
      if (this.connectedOnce && this.watchers.size > 0) this.sayWatching(true);
      this.connectedOnce = true;
    });
    this.subscriber.on('error', (error: Error) =>
      this.log.warn({ err: error }, 'live card subscriber error'),
    );
    this.subscriber.subscribe(this.watchChannel).catch((error: unknown) => {
      this.log.warn({ err: error }, 'O5: could not subscribe; this process’s cards stay on it');
    });
  }

  publish(change: LiveCardChange): void {
    if ('ended' in change) {
      this.latest.delete(change.ended);
      this.coalescer.drop(change.ended);
      if (this.watched()) this.send(change);
      return;
    }
    this.latest.set(change.card.runId, change.card);
    if (this.watched()) this.coalescer.push(change.card);
  }

  watch(onChange: (change: LiveCardChange) => void): () => void {
    this.watchers.add(onChange);
    if (this.watchers.size === 1) {
      void this.subscriber
        .subscribe(this.changesChannel)
        .then(() => this.sayWatching(true))
        .catch((error: unknown) =>
          this.log.warn({ err: error }, 'O5: could not watch other processes’ cards'),
        );
      this.heartbeat = setInterval(() => this.sayWatching(false), this.watchEveryMs);
      this.heartbeat.unref();
    }
    return () => {
      if (!this.watchers.delete(onChange) || this.watchers.size > 0) return;
      if (this.heartbeat !== null) clearInterval(this.heartbeat);
      this.heartbeat = null;
      this.subscriber.unsubscribe(this.changesChannel).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.coalescer.close();
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.watchers.clear();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  private watched(): boolean {
    return Date.now() < this.watchedUntil;
  }

  private received(channel: string, message: string): void {
    try {
      const parsed = JSON.parse(message) as { from?: string; fresh?: boolean; change?: LiveCardChange };
      if (parsed.from === this.id) return;
      if (channel === this.watchChannel) this.someoneWatches(parsed.fresh === true);
      else if (channel === this.changesChannel && parsed.change !== undefined)
        for (const watcher of [...this.watchers]) watcher(parsed.change);
    } catch (error) {
      this.log.warn({ err: error, channel }, 'O5: a live card message could not be read');
    }
  }

  /** A console somewhere is watched: send changes for a while; a new watcher gets every card. */
  private someoneWatches(fresh: boolean): void {
    this.watchedUntil = Date.now() + 3 * this.watchEveryMs;
    if (fresh) for (const card of this.latest.values()) this.coalescer.push(card);
  }

  private sayWatching(fresh: boolean): void {
    this.publisher
      .publish(this.watchChannel, JSON.stringify({ from: this.id, fresh }))
      .catch((error: unknown) => this.log.warn({ err: error }, 'O5: could not ask for live cards'));
  }

  private send(change: LiveCardChange): void {
    const bounded = 'card' in change ? { card: boundedCard(change.card) } : change;
    const message: ChangeMessage = { from: this.id, change: bounded };
    this.publisher
      .publish(this.changesChannel, JSON.stringify(message))
      .catch((error: unknown) => this.log.warn({ err: error }, 'O5: could not publish a live card'));
  }
}
