import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, type DatabaseKind, openDatabase } from '../../src/storage/database';
import { pgliteVersion } from '../../src/storage/pglite/pglite-version';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';

/** Every storage test runs on both engines: PostgreSQL (production) and PGlite (embedded). */
export const DATABASE_KINDS = ['postgres', 'pglite'] as const satisfies readonly DatabaseKind[];

export interface TestDatabase {
  database: Database;
  /** The fresh PostgreSQL database's URL (postgres only). */
  databaseUrl?: string;
  /** The PGlite data directory (pglite only). */
  dbDir?: string;
  /** Closes the database and removes it (the PostgreSQL database, or the PGlite directory). */
  dispose(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Run the migrations before handing the database out (default true). */
  migrate?: boolean;
}

/** A fresh database of the given kind (migrated unless told otherwise), removed by `dispose`. */
export const openTestDatabase = async (
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> => {
  const opened = kind === 'postgres' ? await openPostgres() : await openPglite();
  if (options.migrate ?? true) {
    await opened.database.migrate().catch(async (error: unknown) => {
      await opened.dispose();
      throw error;
    });
  }
  return opened;
};

const serverUrl = (): string =>
  process.env.SUMMON_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const openPostgres = async (): Promise<TestDatabase> => {
  const name = `summon_t_${randomBytes(6).toString('hex')}`;
  await createPostgresDatabase(serverUrl(), name);
  const databaseUrl = databaseUrlFor(serverUrl(), name);
  const drop = () => dropPostgresDatabase(serverUrl(), name);
  const database = await openDatabase({ databaseUrl, dbDir: '' }).catch(async (error: unknown) => {
    await drop();
    throw error;
  });
  return {
    database,
    databaseUrl,
    dispose: async () => {
      await database.close();
      await drop();
    },
  };
};

const openPglite = async (): Promise<TestDatabase> => {
  const dbDir = await mkdtemp(join(tmpdir(), 'summon-pglite-'));
  const remove = () => rm(dbDir, { recursive: true, force: true });
  const database = await cp(await pgliteTemplate(), dbDir, { recursive: true })
    .then(() => openDatabase({ dbDir }))
    .catch(async (error: unknown) => {
      await remove();
      throw error;
    });
  return {
    database,
    dbDir,
    dispose: async () => {
      await database.close();
      await remove();
    },
  };
};

/**
 * PGlite's initdb takes seconds, copying an initialised (unmigrated) cluster milliseconds. The
 * template is cached like any tool cache, keyed by the PGlite version, and built atomically so
 * that parallel jest workers can race for it.
 */
const pgliteTemplate = async (): Promise<string> => {
  const version = pgliteVersion();
  const cacheDir = join(__dirname, '../../node_modules/.cache/summon');
  const template = join(cacheDir, `pglite-template-${version}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  await mkdir(cacheDir, { recursive: true });
  const building = await mkdtemp(join(cacheDir, 'pglite-building-'));
  try {
    const database = await openDatabase({ dbDir: building });
    await database.close();
    await rename(building, template);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    // Another worker finished first: use theirs.
    if (!existsSync(join(template, 'PG_VERSION'))) throw error;
  }
  return template;
};
