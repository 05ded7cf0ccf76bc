/**
 * One worker process of `workers-bench.ts` (run with tsx): a turn engine on PostgreSQL + BullMQ
 * that runs turns only (`runTurns`, no inbox routing: T5's `worker` role), at most
 * BENCH_CONCURRENCY at once, on a model that takes BENCH_MODEL_MS per answer. Its chat platform
 * is its own: it prints `REPLY <thread> <epoch ms>` when the agent's reply is posted, and
 * `READY` once it consumes the queue.
 *
 * Settings: BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_QUEUE, BENCH_PREFIX, BENCH_DATA_DIR,
 * BENCH_CONCURRENCY, BENCH_MODEL_MS.
 */
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type { ChatPlatform, OutboundMessage, ThreadId } from '../../src/core/ports/chat-platform';
import { silentLogger } from '../../src/core/ports/logger';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { openDatabase } from '../../src/storage/database';
import { SlowRunner } from '../turns/gated-turns';

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** Posts succeed at once; the agent's text reply is reported on stdout with the wall-clock time. */
class ReportingPlatform implements ChatPlatform {
  readonly platform = 'terminal' as const;
  private next = 0;

  async post(thread: ThreadId, message: OutboundMessage): Promise<string> {
    if (message.content.kind === 'text' && message.as.kind === 'agent') {
      process.stdout.write(`REPLY ${thread} ${performance.timeOrigin + performance.now()}\n`);
    }
    if (message.content.kind === 'text' && message.as.kind === 'system') {
      process.stdout.write(`SYSTEM ${thread} ${JSON.stringify(message.content.text)}\n`);
    }
    this.next += 1;
    return `w${process.pid}-${this.next}`;
  }

  async update(): Promise<void> {}

  async tellPrivately(): Promise<void> {}

  async startThread(channel: string, message: OutboundMessage) {
    const thread = `${channel}/w${process.pid}-${this.next + 1}`;
    return { thread, messageRef: await this.post(thread, message) };
  }
}

async function main(): Promise<void> {
  const database = await openDatabase({ databaseUrl: setting('BENCH_DATABASE_URL'), dbDir: '' });
  const engine = new TurnEngine({
    store: database.store,
    platforms: new Map([['terminal', new ReportingPlatform()]]),
    queue: createJobQueue<RunJob>({
      name: setting('BENCH_QUEUE'),
      redisUrl: setting('BENCH_REDIS_URL'),
      prefix: setting('BENCH_PREFIX'),
      logger: silentLogger,
    }),
    runners: () => new SlowRunner(Number(setting('BENCH_MODEL_MS'))),
    rateLimiter: new InMemoryPairRateLimiter(),
    directory: new FileWorkspaceDirectory(setting('BENCH_DATA_DIR')),
    clock: { now: () => new Date() },
    logger: silentLogger,
    relayName: null,
    timings: DEFAULT_TIMINGS,
  });
  await database.store.warm(); // as startEngine does
  await engine.start({ concurrency: Number(setting('BENCH_CONCURRENCY')), routeInbox: false });
  const close = () => {
    engine
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.stdout.write('READY\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
