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
import { PassThrough } from 'node:stream';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { TerminalPlatform } from '../../src/bots/terminal';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
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

async function main(): Promise<void> {
  const database = await openDatabase({ databaseUrl: setting('BENCH_DATABASE_URL'), dbDir: '' });
  const runner: Runner = {
    async *run(request) {
      process.stdout.write(`TURN ${request.runId} ${epochMs()}\n`);
      yield { type: 'final', text: 'done' };
    },
  };
  const platform = new TerminalPlatform({ output: new PassThrough(), now: () => new Date() });
  const platforms = new Map([['terminal', platform] as const]);
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
