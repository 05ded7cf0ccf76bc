/**
 * `npm run bench -- routines [count]`: W2, T6. `count` routines (default 1,000) all due at one
 * moment, fired by two schedulers, each with its own turn engine, on one PostgreSQL database and
 * one BullMQ queue (two workers in one process: the claim is the database's either way). Checks
 * that each routine fired once (one firing row, one run, one turn start) and reports the time
 * from the scheduled moment to each turn's start (p50, p99) beside a baseline measured in the
 * same run: as many in-process timers set for one moment, and how late each fired.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

export async function runRoutinesBench(count: number, endpoints: Endpoints, say: (line: string) => void) {
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('count must be an integer >= 1');
  const baseline = await timerBaseline(count);
  const cleanup = new Cleanup();
  try {
    const name = `summon_bench_${randomBytes(6).toString('hex')}`;
    await createPostgresDatabase(endpoints.postgresServerUrl, name);
    cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(endpoints.postgresServerUrl, name));
    const database = await openDatabase({
      databaseUrl: databaseUrlFor(endpoints.postgresServerUrl, name),
      dbDir: '',
    });
    cleanup.defer('close the database', () => database.close());
    await database.migrate();
    const local = await database.store.transaction((tx) => ensureLocalChat(tx));
    const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-routines-'));
    cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
    const names = freshQueueNames('routines');
    deferObliterate(cleanup, names, endpoints.redisUrl);

    const startedAt = new Map<string, number>();
    const runner: Runner = {
      async *run(request) {
        startedAt.set(request.runId, Date.now());
        yield { type: 'final', text: 'done' };
      },
    };
    const engines: TurnEngine[] = [];
    const platform = new TerminalPlatform({ output: new PassThrough(), now: () => new Date() });
    for (let worker = 0; worker < WORKERS; worker += 1) {
      const engine = new TurnEngine({
        store: database.store,
        platforms: new Map([['terminal', platform]]),
        queue: createJobQueue<RunJob>({
          name: names.name,
          redisUrl: endpoints.redisUrl,
          prefix: names.prefix,
          logger: silentLogger,
        }),
        runners: () => runner,
        rateLimiter: new InMemoryPairRateLimiter(),
        directory: new FileWorkspaceDirectory(dataDir),
        clock: { now: () => new Date() },
        logger: silentLogger,
        relayName: null,
        timings: DEFAULT_TIMINGS,
      });
      cleanup.defer(`close engine ${worker}`, () => engine.close());
      await engine.start({ concurrency: 64 });
      engines.push(engine);
    }

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
    // All due at one moment a little ahead, set at once after the rows exist.
    const due = new Date(Math.ceil((Date.now() + LEAD_MS) / 1000) * 1000);
    await (database.store as SqlStore).transaction((tx) =>
      tx.query('UPDATE routines SET next_due_at = $1', [due]),
    );
    // Started once the routines are stored, as a restarted worker finds them: each sleeps until the due time.
    for (const [worker, engine] of engines.entries()) {
      const scheduler = new RoutineScheduler({
        store: database.store,
        platforms: new Map([['terminal', platform]]),
        clock: { now: () => new Date() },
        logger: silentLogger,
        wake: (job) => engine.wake(job),
      });
      cleanup.defer(`close scheduler ${worker}`, () => scheduler.close());
      scheduler.start();
    }
    say(
      `${count} routines due at ${due.toISOString()}, ${WORKERS} schedulers and engines (PostgreSQL + BullMQ)`,
    );
    const deadline = due.getTime() + 300_000;
    while (startedAt.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2000)); // a duplicate would show by now
    const rows = await (database.store as SqlStore).transaction((tx) =>
      tx.query<{ routines: string; firings: string; runs: string }>(
        `SELECT count(DISTINCT routine_id)::text AS routines, count(*)::text AS firings, count(run_id)::text AS runs
           FROM routine_firings`,
      ),
    );
    const firings = rows[0] ?? { routines: '0', firings: '0', runs: '0' };
    const once =
      Number(firings.routines) === count && Number(firings.firings) === count && startedAt.size === count;
    say(
      `fired: ${firings.routines} routines, ${firings.firings} firings, ${firings.runs} runs, ${startedAt.size} turn starts — ${once ? 'each once' : 'NOT each once'}`,
    );
    const latencies = [...startedAt.values()].map((at) => at - due.getTime());
    say(line('scheduled time → turn start', summarize(latencies, Math.max(...latencies))));
    say(line('in-process timer baseline', baseline));
    if (!once) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
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
