import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, type DatabaseKind, openDatabase } from '../../src/storage/database';
import { pgliteVersion } from '../../src/storage/pglite/pglite-version';
import {
  createPostgresDatabase,
  databaseUrlFor,
  dropPostgresDatabase,
  postgresDatabaseExists,
  renamePostgresDatabase,
} from '../../src/storage/server-admin';

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
  /** PostgreSQL: the server to create it on (default `SUMMON_TEST_PG_URL`, else 127.0.0.1:5432). */
  serverUrl?: string;
}

/**
 * A fresh database of the given kind (migrated unless told otherwise), removed by `dispose`.
 * A migrated one is a copy of a migrated template (a template database on the server, a copied
 * data directory for PGlite), built once per set of migrations: running every migration for each
 * test is most of what a test database costs.
 */
export const openTestDatabase = async (
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> => {
  const migrated = options.migrate ?? true;
  const opened =
    kind === 'postgres'
      ? await openPostgres(migrated, options.serverUrl ?? defaultServerUrl())
      : await openPglite(migrated);
  if (migrated) {
    // Nothing is pending in a copy of the template; this keeps the contract if it ever is.
    await opened.database.migrate().catch(async (error: unknown) => {
      await opened.dispose();
      throw error;
    });
  }
  return opened;
};

const defaultServerUrl = (): string =>
  process.env.SUMMON_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const openPostgres = async (migrated: boolean, serverUrl: string): Promise<TestDatabase> => {
  const name = `summon_t_${randomBytes(6).toString('hex')}`;
  const template = migrated ? await postgresTemplate(serverUrl) : undefined;
  await createPostgresDatabase(serverUrl, name, template);
  const databaseUrl = databaseUrlFor(serverUrl, name);
  const drop = () => dropPostgresDatabase(serverUrl, name);
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

const openPglite = async (migrated: boolean): Promise<TestDatabase> => {
  const dbDir = await mkdtemp(join(tmpdir(), 'summon-pglite-'));
  const remove = () => rm(dbDir, { recursive: true, force: true });
  const template = migrated ? await pgliteMigratedTemplate() : await pgliteTemplate();
  const database = await cp(template, dbDir, { recursive: true })
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
const pgliteTemplate = (): Promise<string> =>
  cachedPgliteDir(`pglite-template-${pgliteVersion()}`, async (building) => {
    const database = await openDatabase({ dbDir: building });
    await database.close();
  });

/** The same, migrated: keyed by the PGlite version and the migrations' sources. */
const pgliteMigratedTemplate = async (): Promise<string> => {
  const initialised = await pgliteTemplate();
  return cachedPgliteDir(`pglite-migrated-${pgliteVersion()}-${migrationsHash()}`, async (building) => {
    await cp(initialised, building, { recursive: true });
    const database = await openDatabase({ dbDir: building });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  });
};

const cachedPgliteDir = async (name: string, build: (dir: string) => Promise<void>): Promise<string> => {
  const cacheDir = join(__dirname, '../../node_modules/.cache/summon');
  const template = join(cacheDir, name);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  await mkdir(cacheDir, { recursive: true });
  const building = await mkdtemp(join(cacheDir, 'pglite-building-'));
  try {
    await build(building);
    await rename(building, template);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    // Another worker finished first: use theirs.
    if (!existsSync(join(template, 'PG_VERSION'))) throw error;
  }
  return template;
};

/** A short hash of every migration's source: a changed or added migration makes new templates. */
const migrationsHash = (): string => {
  const dir = join(__dirname, '../../migrations');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 12);
};

/** Per server: a test may run its own (T2 outage tests) beside the shared one. */
const postgresTemplateNames = new Map<string, Promise<string>>();

/**
 * The migrated template database on the test server, built once per set of migrations and kept
 * (a few hundred kilobytes), so later runs start from it too. Built under another name and
 * renamed, so parallel jest workers that race for it see it whole or not at all.
 */
const postgresTemplate = (serverUrl: string): Promise<string> => {
  const cached = postgresTemplateNames.get(serverUrl);
  if (cached !== undefined) return cached;
  const building = buildPostgresTemplate(serverUrl).catch((error: unknown) => {
    postgresTemplateNames.delete(serverUrl);
    throw error;
  });
  postgresTemplateNames.set(serverUrl, building);
  return building;
};

const buildPostgresTemplate = async (serverUrl: string): Promise<string> => {
  const name = `summon_template_${migrationsHash()}`;
  if (await postgresDatabaseExists(serverUrl, name)) return name;
  const building = `summon_building_${randomBytes(6).toString('hex')}`;
  await createPostgresDatabase(serverUrl, building);
  try {
    const database = await openDatabase({ databaseUrl: databaseUrlFor(serverUrl, building), dbDir: '' });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await renamePostgresDatabase(serverUrl, building, name);
  } catch (error) {
    await dropPostgresDatabase(serverUrl, building);
    // Another worker finished first: use theirs.
    if (!(await postgresDatabaseExists(serverUrl, name))) throw error;
  }
  return name;
};
