import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, type DatabaseKind, openDatabase } from '../../src/storage/database';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import type { Cleanup } from './cleanup';

/** A fresh database's name: `summon_bench_<random>` (what the cleanup and Ctrl-C look for). */
export const randomBenchDatabaseName = (): string => `summon_bench_${randomBytes(6).toString('hex')}`;

/**
 * A fresh, migrated database: `summon_bench_<random>` on the PostgreSQL server, or PGlite in a
 * new temp dir. Its removal (drop, or delete the dir) is registered on `cleanup` before it is
 * opened, so a failure half-way still removes it.
 */
export async function openBenchDatabase(
  kind: DatabaseKind,
  postgresServerUrl: string,
  cleanup: Cleanup,
): Promise<Database> {
  let database: Database;
  if (kind === 'postgres') {
    const name = randomBenchDatabaseName();
    await createPostgresDatabase(postgresServerUrl, name);
    cleanup.defer(`drop database ${name}`, () => dropPostgresDatabase(postgresServerUrl, name));
    database = await openDatabase({ databaseUrl: databaseUrlFor(postgresServerUrl, name), dbDir: '' });
  } else {
    const dbDir = await mkdtemp(join(tmpdir(), 'summon-bench-pglite-'));
    cleanup.defer(`remove ${dbDir}`, () => rm(dbDir, { recursive: true, force: true }));
    database = await openDatabase({ dbDir });
  }
  cleanup.defer('close the database', () => database.close());
  await database.migrate();
  return database;
}
