import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { Redis } from 'ioredis';
import { ensureLocalChat } from '../../src/core/workspace/local-chat';
import { type DatabaseKind, openDatabase } from '../../src/storage/database';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import { randomBenchDatabaseName } from '../core/bench-database';
import type { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { type ServedChild, startChild } from './child';
import { type BenchStandIns, CHANNEL, PERSON, SIGNING_SECRET, TEAM } from './stand-ins';

/**
 * `summon serve` reads no queue name: it uses BullMQ's default prefix and its one turn queue. So
 * that a run shares no key with tests or other Summon processes on the same Redis, the
 * benchmark's Summon uses a Redis database of its own, emptied before and after.
 */
const BENCH_REDIS_DB = 13;

export interface SummonSetup {
  label: string;
  database: DatabaseKind;
  bullmq: boolean;
  /** The space shared, not dedicated: a plain message is stored and starts nothing (P3; `ingest`). */
  shared?: boolean;
  /** More of `summon serve`'s environment (`console`: the sign-in app, the concurrency). */
  env?: Record<string, string>;
}

export interface RunningSummon extends ServedChild {
  eventsUrl: string;
  /** The PostgreSQL database's name (null on PGlite). */
  databaseName: string | null;
}

/**
 * The real `summon serve` (`src/cli/main.ts serve`) in a child process, as someone runs it with
 * Slack over HTTP: a bot token, a signing secret, the Anthropic key, on a fresh database (a
 * `summon_bench_*` PostgreSQL database, or PGlite in its data dir) and the in-process queue or
 * BullMQ. Before it starts, the database is migrated and the default workspace linked to the
 * bench's Slack team, its `general` space (dedicated: every message answered, P3) bound to the
 * bench's channel, and the person who mentions a member.
 */
export async function startSummon(
  setup: SummonSetup,
  endpoints: Endpoints,
  standIns: BenchStandIns,
  cleanup: Cleanup,
): Promise<RunningSummon> {
  const dataDir = await mkdtemp(join(tmpdir(), 'summon-bench-serve-'));
  cleanup.defer(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = {
    SUMMON_DATA_DIR: dataDir,
    SLACK_BOT_TOKEN: standIns.slack.token,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: standIns.slackApiUrl,
    ANTHROPIC_API_KEY: standIns.anthropicKey,
    ANTHROPIC_BASE_URL: standIns.anthropic.url,
    SUMMON_SANDBOX: 'off',
    LOG_LEVEL: process.env.SUMMON_BENCH_LOG_LEVEL ?? 'info',
    ...setup.env,
  };
  // A diagnostic: what the sign of life costs under load, with it moved past every turn's end.
  if (process.env.SUMMON_BENCH_SIGN_OF_LIFE_MS !== undefined)
    env.SUMMON_SIGN_OF_LIFE_MS = process.env.SUMMON_BENCH_SIGN_OF_LIFE_MS;
  let databaseName: string | null = null;
  if (setup.database === 'postgres') {
    databaseName = randomBenchDatabaseName();
    const name = databaseName;
    await createPostgresDatabase(endpoints.postgresServerUrl, name);
    // A diagnostic: SUMMON_BENCH_KEEP_DB=1 keeps the database for EXPLAIN after the run (named in the log).
    if (process.env.SUMMON_BENCH_KEEP_DB === '1') console.error(`keeping database ${name}`);
    else
      cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(endpoints.postgresServerUrl, name));
    env.DATABASE_URL = databaseUrlFor(endpoints.postgresServerUrl, name);
  }
  await linkToSlack(env.DATABASE_URL, join(dataDir, 'db'), setup.shared === true);
  if (setup.bullmq) {
    const url = new URL(endpoints.redisUrl);
    url.pathname = `/${BENCH_REDIS_DB}`;
    env.REDIS_URL = url.toString();
    await emptyRedis(env.REDIS_URL);
    cleanup.defer(`empty Redis database ${BENCH_REDIS_DB}`, () => emptyRedis(env.REDIS_URL ?? ''));
  }
  const child = await startChild(
    await compiledSummon(),
    ['serve'],
    env,
    join(dataDir, 'serve.log'),
    '/healthz',
    cleanup,
  );
  return { ...child, eventsUrl: `http://127.0.0.1:${child.port}/slack/events`, databaseName };
}

async function linkToSlack(databaseUrl: string | undefined, dbDir: string, shared: boolean): Promise<void> {
  const database = await openDatabase(databaseUrl === undefined ? { dbDir } : { databaseUrl, dbDir: '' });
  try {
    await database.migrate();
    await database.store.transaction(async (tx) => {
      const chat = await ensureLocalChat(tx);
      if (shared) await tx.spaces.update(chat.space.id, { dedicated: false });
      await tx.platformBindings.bind(chat.workspace.id, 'slack', TEAM);
      await tx.channelBindings.bind(chat.space.id, 'slack', CHANNEL);
      await tx.members.insert(chat.workspace.id, {
        nickname: 'dana',
        role: 'owner',
        slackUserId: PERSON,
        discordUserId: null,
      });
    });
  } finally {
    await database.close();
  }
}

async function emptyRedis(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
}

let compiled: Promise<string> | undefined;

/**
 * Summon as it runs in production (`npm start`): compiled by `npm run build` into `dist/`, then
 * run by node. From source under tsx each function it makes is named by a helper call of tsx's
 * (`__name`), a cost production does not pay. Built once per bench process.
 */
function compiledSummon(): Promise<string> {
  // A diagnostic: SUMMON_BENCH_FROM_SOURCE=1 runs it from source under tsx, as before, with no build.
  if (process.env.SUMMON_BENCH_FROM_SOURCE === '1') return Promise.resolve('src/cli/main.ts');
  compiled ??= new Promise((resolve, reject) => {
    const build = spawn('npm', ['run', 'build', '--silent'], {
      cwd: path.join(__dirname, '../..'),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    build.once('error', reject);
    build.once('exit', (code) =>
      code === 0 ? resolve('dist/src/cli/main.js') : reject(new Error(`npm run build exited with ${code}`)),
    );
  });
  return compiled;
}
