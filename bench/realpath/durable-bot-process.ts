import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import { randomBenchDatabaseName } from '../core/bench-database';
import type { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { startChild } from './child';
import { FLOOR_SCHEMA } from './durable-floor-sql';
import { type BenchStandIns, SIGNING_SECRET } from './stand-ins';
import type { RunningSummon } from './summon-process';

/**
 * The durable floor bot (`durable-bot.ts`) in its own process, on the same stand-ins as Summon
 * and a fresh `summon_bench_*` database of its own on the same PostgreSQL server, its three
 * tables made before it starts and the database dropped afterwards.
 */
export async function startDurableBot(
  standIns: BenchStandIns,
  endpoints: Endpoints,
  cleanup: Cleanup,
): Promise<RunningSummon> {
  const dir = await mkdtemp(join(tmpdir(), 'summon-bench-floor-'));
  cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const name = randomBenchDatabaseName();
  await createPostgresDatabase(endpoints.postgresServerUrl, name);
  cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(endpoints.postgresServerUrl, name));
  const databaseUrl = databaseUrlFor(endpoints.postgresServerUrl, name);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const statement of FLOOR_SCHEMA) await client.query(statement);
  } finally {
    await client.end();
  }
  const child = await startChild(
    'bench/realpath/durable-bot.ts',
    [],
    {
      DATABASE_URL: databaseUrl,
      SLACK_BOT_TOKEN: standIns.slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: standIns.slackApiUrl,
      ANTHROPIC_API_KEY: standIns.anthropicKey,
      ANTHROPIC_BASE_URL: standIns.anthropic.url,
    },
    join(dir, 'durable-bot.log'),
    '/slack/events',
    cleanup,
  );
  return { ...child, eventsUrl: `http://127.0.0.1:${child.port}/slack/events`, databaseName: name };
}
