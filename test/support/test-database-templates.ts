import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { databaseDir } from '../../src/config/config';
import { openDatabase } from '../../src/storage/database';
import { pgliteVersion } from '../../src/storage/pglite/pglite-version';
import {
  createPostgresDatabase,
  databaseUrlFor,
  dropPostgresDatabase,
  postgresDatabaseExists,
  renamePostgresDatabase,
} from '../../src/storage/server-admin';
import { copyDirectory, removeDirectory } from './directory-copy';

/**
 * The migrated templates test databases are copied from (`test-database.ts`): built once per set
 * of migrations, since running every migration for each test is most of what a fresh test
 * database would cost.
 */

export const serverUrl = (): string =>
  process.env.SUMMON_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * PGlite's initdb takes seconds, copying an initialised (unmigrated) cluster milliseconds. The
 * template is cached like any tool cache, keyed by the PGlite version, and built atomically so
 * that parallel jest workers can race for it.
 */
export const pgliteTemplate = (): Promise<string> =>
  cachedPgliteDir(`pglite-template-${pgliteVersion()}`, async (building) => {
    const database = await openDatabase({ dbDir: building });
    await database.close();
  });

/** The same, migrated: keyed by the PGlite version and the migrations' sources. */
export const pgliteMigratedTemplate = async (): Promise<string> => {
  const initialised = await pgliteTemplate();
  return cachedPgliteDir(`pglite-migrated-${pgliteVersion()}-${migrationsHash()}`, async (building) => {
    await copyDirectory(initialised, building);
    const database = await openDatabase({ dbDir: building });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
  });
};

/**
 * A data folder (`SUMMON_DATA_DIR`) whose embedded database (`<dataDir>/db`) is a copy of the
 * migrated template: the runtime, the server or the CLI opened on it finds it migrated instead
 * of running initdb and every migration (seconds each time on a busy machine). For tests about
 * what runs on a database, not about making one (`cli.test.ts` keeps a fresh folder for that).
 */
export const seedMigratedDataDir = async (dataDir: string): Promise<void> => {
  const dbDir = databaseDir({ dataDir });
  await mkdir(dbDir, { recursive: true });
  await copyDirectory(await pgliteMigratedTemplate(), dbDir);
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
    await removeDirectory(building);
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
export const postgresTemplate = (server: string = serverUrl()): Promise<string> => {
  const cached = postgresTemplateNames.get(server);
  if (cached !== undefined) return cached;
  const building = buildPostgresTemplate(server).catch((error: unknown) => {
    postgresTemplateNames.delete(server);
    throw error;
  });
  postgresTemplateNames.set(server, building);
  return building;
};

const buildPostgresTemplate = async (server: string): Promise<string> => {
  const name = `summon_template_${migrationsHash()}`;
  if (await postgresDatabaseExists(server, name)) return name;
  const building = `summon_building_${randomBytes(6).toString('hex')}`;
  await createPostgresDatabase(server, building);
  try {
    const database = await openDatabase({ databaseUrl: databaseUrlFor(server, building), dbDir: '' });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    await renamePostgresDatabase(server, building, name);
  } catch (error) {
    await dropPostgresDatabase(server, building);
    // Another worker finished first: use theirs.
    if (!(await postgresDatabaseExists(server, name))) throw error;
  }
  return name;
};
