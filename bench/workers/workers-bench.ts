/**
 * `npm run bench -- workers [--cap 4] [--model-ms 5000] [--burst 40] [--spread-ms 8000]`: T5
 * scale-out. The slow-model load (a burst of mentions, each in its own thread, spread over
 * `--spread-ms`, the model taking `--model-ms` per answer) on PostgreSQL + BullMQ, answered by
 * one worker process and then, on a fresh database and queue, by two, each with the same small
 * concurrency cap. This process routes (a `web`-like engine that runs no turns); the workers
 * only run turns. Reports throughput (replies per second from the first mention to the last
 * reply) and reply p50/p99 of both, and the ratio. Goal: two workers ≥ 1.8× one's throughput.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createJobQueue } from '../../src/adapters/queue/create-job-queue';
import { FileWorkspaceDirectory } from '../../src/adapters/workspace-directory/file-workspace-directory';
import { DEFAULT_TIMINGS } from '../../src/core/engine/engine-timings';
import type { RunJob } from '../../src/core/engine/run-job';
import { TurnEngine } from '../../src/core/engine/turn-engine';
import { silentLogger } from '../../src/core/ports/logger';
import { InMemoryPairRateLimiter } from '../../src/core/wake/in-memory-pair-rate-limiter';
import { ensureLocalChat, LOCAL_CHANNEL, LOCAL_MEMBER } from '../../src/core/workspace/local-chat';
import { openDatabase } from '../../src/storage/database';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import { deferObliterate, freshQueueNames } from '../core/bench-queues';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { RecordingPlatform } from '../core/recording-platform';
import { type Measurement, summarize } from '../core/stats';

export interface WorkersBenchOptions {
  cap: number;
  modelMs: number;
  burst: number;
  spreadMs: number;
}

export function parseWorkersOptions(argv: readonly string[]): WorkersBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      cap: { type: 'string', default: '4' },
      'model-ms': { type: 'string', default: '5000' },
      burst: { type: 'string', default: '40' },
      'spread-ms': { type: 'string', default: '8000' },
    },
  });
  const options = {
    cap: Number(values.cap),
    modelMs: Number(values['model-ms']),
    burst: Number(values.burst),
    spreadMs: Number(values['spread-ms']),
  };
  for (const [name, value] of Object.entries(options))
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} must be an integer >= 1.`);
  return options;
}

const epochMs = () => performance.timeOrigin + performance.now();

/** A worker process; resolves once it consumes the queue. Its replies go to `onReply`. */
function startWorker(
  env: Record<string, string>,
  onReply: (thread: string, atMs: number) => void,
  cleanup: Cleanup,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'bench-worker.ts')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  cleanup.defer(`stop worker ${child.pid}`, async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a bench worker exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const [kind, thread, at] = line.split(' ');
      if (kind === 'READY') resolve(child);
      if (kind === 'REPLY' && thread !== undefined) onReply(thread, Number(at));
      if (kind === 'SYSTEM') process.stderr.write(`worker: ${line}\n`);
    });
  });
}

async function measure(
  workers: number,
  options: WorkersBenchOptions,
  endpoints: Endpoints,
): Promise<Measurement> {
  const cleanup = new Cleanup();
  try {
    const name = `summon_bench_${randomBytes(6).toString('hex')}`;
    await createPostgresDatabase(endpoints.postgresServerUrl, name);
    cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(endpoints.postgresServerUrl, name));
    const databaseUrl = databaseUrlFor(endpoints.postgresServerUrl, name);
    const database = await openDatabase({ databaseUrl, dbDir: '' });
    cleanup.defer('close the database', () => database.close());
    await database.migrate();
    const local = await database.store.transaction((tx) => ensureLocalChat(tx));
    const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-data-'));
    cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
    const names = freshQueueNames('workers');
    deferObliterate(cleanup, names, endpoints.redisUrl);

    const engine = new TurnEngine({
      store: database.store,
      platforms: new Map([['terminal', new RecordingPlatform('engineer', 600_000)]]),
      queue: createJobQueue<RunJob>({
        name: names.name,
        redisUrl: endpoints.redisUrl,
        prefix: names.prefix,
        logger: silentLogger,
      }),
      runners: () => {
        throw new Error('this process runs no turns');
      },
      rateLimiter: new InMemoryPairRateLimiter(),
      directory: new FileWorkspaceDirectory(dataDir),
      clock: { now: () => new Date() },
      logger: silentLogger,
      relayName: null,
      timings: DEFAULT_TIMINGS,
    });
    cleanup.defer('close the routing engine', () => engine.close());
    await database.store.warm(); // as startEngine does
    await engine.start({ concurrency: 1, runTurns: false });

    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    let lastReply = 0;
    let allReplied = () => {};
    const replied = new Promise<void>((resolve) => {
      allReplied = resolve;
    });
    const onReply = (thread: string, atMs: number) => {
      const sent = sentAt.get(thread);
      if (sent === undefined) return;
      sentAt.delete(thread);
      latencies.push(atMs - sent);
      lastReply = Math.max(lastReply, atMs);
      if (latencies.length === options.burst) allReplied();
    };
    const env = {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_REDIS_URL: endpoints.redisUrl,
      BENCH_QUEUE: names.name,
      BENCH_PREFIX: names.prefix,
      BENCH_DATA_DIR: dataDir,
      BENCH_CONCURRENCY: String(options.cap),
      BENCH_MODEL_MS: String(options.modelMs),
    };
    await Promise.all(Array.from({ length: workers }, () => startWorker(env, onReply, cleanup)));

    const first = epochMs();
    const gap = options.spreadMs / Math.max(1, options.burst - 1);
    await Promise.all(
      Array.from({ length: options.burst }, async (_, i) => {
        const dueMs = first + i * gap;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueMs - epochMs())));
        const thread = `terminal:${LOCAL_CHANNEL}:${i}`;
        sentAt.set(thread, dueMs);
        const outcome = await engine.receive({
          platform: 'terminal',
          eventId: randomUUID(),
          workspace: { slug: local.workspace.slug },
          channelId: LOCAL_CHANNEL,
          thread,
          topLevel: true,
          messageRef: `in-${i}`,
          senderId: LOCAL_MEMBER,
          text: `@engineer slow question ${i}`,
          receivedAt: new Date(),
        });
        if (outcome.kind !== 'accepted') throw new Error(`${thread}: ${JSON.stringify(outcome)}`);
      }),
    );
    const timeoutMs = options.modelMs * options.burst + 120_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      replied,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${options.burst - latencies.length} replies missing`)),
          timeoutMs,
        );
      }),
    ]);
    clearTimeout(timer);
    return summarize(latencies, lastReply - first);
  } finally {
    await cleanup.run();
  }
}

export async function runWorkersBench(
  options: WorkersBenchOptions,
  endpoints: Endpoints,
  log: (line: string) => void,
): Promise<void> {
  log(
    `slow model (${options.modelMs} ms), ${options.burst} mentions over ${options.spreadMs} ms, ` +
      `each worker process capped at ${options.cap} turns (PostgreSQL + BullMQ):`,
  );
  const row = (m: Measurement) =>
    `${m.throughput.toFixed(2)} replies/s, p50 ${m.p50Ms.toFixed(0)} ms, p99 ${m.p99Ms.toFixed(0)} ms, all in ${(m.elapsedMs / 1000).toFixed(1)} s`;
  const one = await measure(1, options, endpoints);
  log(`  one worker (baseline): ${row(one)}`);
  const two = await measure(2, options, endpoints);
  log(`  two workers:           ${row(two)}`);
  log(`  throughput ratio two / one: ${(two.throughput / one.throughput).toFixed(2)}× (goal ≥ 1.8×)`);
}
