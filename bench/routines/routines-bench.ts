/**
 * `npm run bench -- routines [count]`: W2, T6. `count` routines (default 1,000) all due at one
 * moment, fired by two worker processes (`routines-worker.ts`: each a routine scheduler and a
 * turn engine, as `summon serve --role worker` runs them) on one PostgreSQL database and one
 * BullMQ queue. Checks that each routine fired once (one firing row, one run, one turn start
 * across both processes) and reports the time from the scheduled moment to each turn's start
 * (p50, p99) beside a baseline measured in the same run: as many in-process timers set for one
 * moment, and how late each fired.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { openDatabase } from '../../src/storage/database';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import type { SqlStore } from '../../src/storage/store/sql-store';
import { deferObliterate, freshQueueNames } from '../core/bench-queues';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { type Measurement, summarize } from '../core/stats';

const WORKERS = 2;
const LEAD_MS = 3000;
const CONCURRENCY = 64;

/** What the worker processes reported: each turn start by run id, and how many starts in all. */
interface TurnStarts {
  byRun: Map<string, number>;
  lines: number;
  byWorker: number[];
}

export async function runRoutinesBench(count: number, endpoints: Endpoints, say: (line: string) => void) {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('count must be an integer >= 1');
  const baseline = await timerBaseline(count);
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
    const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-routines-'));
    cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
    const names = freshQueueNames('routines');
    deferObliterate(cleanup, names, endpoints.redisUrl);

    const stored = new Date(Date.now() + 3_600_000);
    await database.store.transaction(async (tx) => {
      const qa = await tx.agents.findByName(local.workspace.id, 'qa');
      if (qa === null) throw new Error('qa is seeded');
      const target = { workspaceId: local.workspace.id, spaceId: local.space.id, agentId: qa.id };
      for (let n = 0; n < count; n += 1)
        await tx.routines.save(
          target,
          {
            name: `r${n}`,
            agent: 'qa',
            prompt: `routine ${n}`,
            trigger: { kind: 'schedule', cron: '0 0 1 1 *', timezone: 'UTC' },
            onMissed: 'runOnce',
            budget: null,
            paused: false,
          },
          stored,
        );
    });
    const starts: TurnStarts = { byRun: new Map(), lines: 0, byWorker: Array(WORKERS).fill(0) };
    const env = {
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_REDIS_URL: endpoints.redisUrl,
      BENCH_QUEUE: names.name,
      BENCH_PREFIX: names.prefix,
      BENCH_DATA_DIR: dataDir,
      BENCH_CONCURRENCY: String(CONCURRENCY),
    };
    const workers = await Promise.all(
      Array.from({ length: WORKERS }, (_, n) => startWorker(env, n, starts, cleanup)),
    );
    // All due at one moment a little ahead, set at once after the rows exist; then each worker's
    // scheduler starts, as a restarted worker finds them, and sleeps until the due time.
    const due = new Date(Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000);
    await (database.store as SqlStore).transaction((tx) =>
      tx.query('UPDATE routines SET next_due_at = $1', [due]),
    );
    for (const worker of workers) worker.stdin?.write('START\n');
    say(
      `${count} routines due at ${due.toISOString()}, ${WORKERS} worker processes (scheduler + engine each, PostgreSQL + BullMQ, pids ${workers.map((w) => w.pid).join(', ')})`,
    );
    const deadline = due.getTime() + 300_000;
    while (starts.byRun.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2000)); // a duplicate would show by now
    const rows = await (database.store as SqlStore).transaction((tx) =>
      tx.query<{ routines: string; firings: string; runs: string; failed: string }>(
        `SELECT count(DISTINCT routine_id)::text AS routines, count(*)::text AS firings, count(run_id)::text AS runs,
                count(*) FILTER (WHERE outcome <> 'started')::text AS failed
           FROM routine_firings`,
      ),
    );
    const firings = rows[0] ?? { routines: '0', firings: '0', runs: '0', failed: '0' };
    const once =
      Number(firings.routines) === count &&
      Number(firings.firings) === count &&
      Number(firings.runs) === count &&
      starts.byRun.size === count &&
      starts.lines === count;
    say(
      `fired: ${firings.routines} routines, ${firings.firings} firings (${firings.failed} not started), ${firings.runs} runs, ${starts.lines} turn starts (per worker ${starts.byWorker.join(' + ')}) — ${once ? 'each once' : 'NOT each once'}`,
    );
    const latencies = [...starts.byRun.values()].map((at) => at - due.getTime());
    say(line('scheduled time → turn start', summarize(latencies, Math.max(...latencies))));
    say(line('in-process timer baseline', baseline));
    if (!once) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

/** A worker process; resolves once it consumes the queue. Its turn starts go to `starts`. */
function startWorker(
  env: Record<string, string>,
  index: number,
  starts: TurnStarts,
  cleanup: Cleanup,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'routines-worker.ts')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
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
    child.once('exit', (code) => reject(new Error(`a routines bench worker exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
      const [kind, runId, at] = text.split(' ');
      if (kind === 'READY') resolve(child);
      if (kind === 'TURN' && runId !== undefined) {
        starts.lines += 1;
        starts.byWorker[index] = (starts.byWorker[index] ?? 0) + 1;
        if (!starts.byRun.has(runId)) starts.byRun.set(runId, Number(at));
      }
    });
  });
}

const line = (what: string, m: Measurement) =>
  `${what.padEnd(30)} p50 ${m.p50Ms.toFixed(1)} ms  p99 ${m.p99Ms.toFixed(1)} ms  max ${m.maxMs.toFixed(1)} ms`;

/** The same number of `setTimeout`s for one moment: how late a bare in-process timer fires. */
async function timerBaseline(count: number): Promise<Measurement> {
  const due = Date.now() + 1000;
  const late = await Promise.all(
    Array.from(
      { length: count },
      () => new Promise<number>((resolve) => setTimeout(() => resolve(Date.now() - due), due - Date.now())),
    ),
  );
  return summarize(late, Math.max(...late, 1));
}
