/**
 * One worker process of `routines-bench.ts` (run with tsx): a turn engine on PostgreSQL + BullMQ
 * (concurrency BENCH_CONCURRENCY) and a routine scheduler, as `summon serve --role worker` runs
 * them. It prints `READY` once it consumes the queue, starts its scheduler when its stdin says
 * `START` (the routines are stored by then, as a restarted worker finds them), and prints
 * `TURN <run id> <epoch ms>` when a turn starts.
 *
 * Settings: BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_QUEUE, BENCH_PREFIX, BENCH_DATA_DIR,
 * BENCH_CONCURRENCY.
 */

import { createInterface } from 'node:readline';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import type { ChatPlatform, ThreadId } from '../../src/core/ports/chat-platform';
import { silentLogger } from '../../src/core/ports/logger';
import type { Runner } from '../../src/core/ports/runner';
import { RoutineScheduler } from '../../src/core/routines/routine-scheduler';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { openDatabase } from '../../src/storage/database';

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

const epochMs = () => performance.timeOrigin + performance.now();

/**
 * The chat the turns post to: posts succeed at once. Thread and message references carry the
 * process id, as a real platform's are unique across the processes that post to it.
 */
class BenchPlatform implements ChatPlatform {
  readonly platform = 'terminal' as const;
  private next = 0;

  async post(): Promise<string> {
    this.next += 1;
    return `w${process.pid}-${this.next}`;
  }

  async update(): Promise<void> {}

  async tellPrivately(): Promise<void> {}

  async startThread(channel: string): Promise<{ thread: ThreadId; messageRef: string }> {
    const messageRef = await this.post();
    return { thread: `${channel}/${messageRef}`, messageRef };
  }
}

async function main(): Promise<void> {
  const database = await openDatabase({ databaseUrl: setting('BENCH_DATABASE_URL'), dbDir: '' });
  const runner: Runner = {
    async *run(request) {
      process.stdout.write(`TURN ${request.runId} ${epochMs()}\n`);
      yield { type: 'final', text: 'done' };
    },
  };
  const platforms = new Map([['terminal', new BenchPlatform()] as const]);
  const engine = new TurnEngine({
    store: database.store,
    platforms,
    queue: createJobQueue<RunJob>({
      name: setting('BENCH_QUEUE'),
      redisUrl: setting('BENCH_REDIS_URL'),
      prefix: setting('BENCH_PREFIX'),
      logger: silentLogger,
    }),
    runners: () => runner,
    rateLimiter: new InMemoryPairRateLimiter(),
    directory: new FileWorkspaceDirectory(setting('BENCH_DATA_DIR')),
    clock: { now: () => new Date() },
    logger: silentLogger,
    relayName: null,
    timings: DEFAULT_TIMINGS,
  });
  await database.store.warm(); // as startEngine does
  await engine.start({ concurrency: Number(setting('BENCH_CONCURRENCY')), routeInbox: false });
  const scheduler = new RoutineScheduler({
    store: database.store,
    platforms,
    clock: { now: () => new Date() },
    logger: silentLogger,
    wake: (job) => engine.wake(job),
  });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'START') scheduler.start();
  });
  const close = () => {
    scheduler
      .close()
      .then(() => engine.close())
      .then(() => database.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', close);
  process.stdout.write('READY\n');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `routines bench worker failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
