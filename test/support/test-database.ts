import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, type DatabaseKind, openDatabase } from '../../src/storage/database';
import { openPglite } from '../../src/storage/pglite/open-pglite';
import { createPostgresDatabase, databaseUrlFor, dropPostgresDatabase } from '../../src/storage/server-admin';
import { copyDirectory, removeDirectory } from './directory-copy';
import { assertResettable, resetData, schemaFingerprint } from './test-database-reset';
import { onTestFileEnd, testDatabaseReuseEnabled } from './test-database-reuse';
import { leaveSpare, takeSpare } from './test-database-spares';
import {
  pgliteMigratedTemplate,
  pgliteTemplate,
  postgresTemplate,
  serverUrl,
} from './test-database-templates';

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
  /** PostgreSQL: the server to create it on (default `SUMMON_TEST_PG_URL`, else 127.0.0.1:5432); never reused. */
  serverUrl?: string;
}

/**
 * A fresh database of the given kind (migrated unless told otherwise), removed by `dispose`.
 * A migrated one is a copy of a migrated template (`test-database-templates.ts`).
 *
 * Within one jest test file (`test-database-setup.ts`), a disposed migrated database is kept,
 * and the next test of the file gets it back reset to the template's state
 * (`test-database-reset.ts`) instead of a new copy: a PGlite engine or a PostgreSQL database
 * costs seconds to make on a busy machine, a reset milliseconds. A database is never kept when
 * its test read its URL or directory (another process or connection may still use it), closed
 * its PGlite engine, or changed its schema. A database still kept at the file's end goes to the
 * next file of the same jest worker (a PGlite directory with its engine closed), and the run's
 * end removes it (`test-database-spares.ts`).
 */
export const openTestDatabase = async (
  kind: DatabaseKind,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> => {
  const migrated = options.migrate ?? true;
  // A database on a server of the test's own (T2 outage tests) is never kept.
  const reusable = migrated && options.serverUrl === undefined && testDatabaseReuseEnabled();
  const { slot, lease } = reusable
    ? await takeKept(kind)
    : await leaseNew(await newSlot(kind, migrated, options.serverUrl ?? serverUrl()));
  if (migrated) {
    // Nothing is pending in a copy of the template; this keeps the contract if it ever is.
    await lease.database.migrate().catch(async (error: unknown) => {
      await lease.release(false);
      await slot.destroy();
      throw error;
    });
  }
  let shared = false;
  const dispose = async () => {
    const keep = reusable && !shared && testDatabaseReuseEnabled();
    const intact = await lease.release(keep);
    if (keep && intact) kept[kind].push(slot);
    else await slot.destroy();
  };
  if (slot.kind === 'postgres') {
    return {
      database: lease.database,
      get databaseUrl() {
        shared = true;
        return slot.location;
      },
      dispose,
    };
  }
  return {
    database: lease.database,
    get dbDir() {
      shared = true;
      return slot.location;
    },
    dispose,
  };
};

/** One PostgreSQL database, or one PGlite directory with its engine running. */
interface Slot {
  kind: DatabaseKind;
  /** The database's URL, or the PGlite data directory. */
  location: string;
  /** A `Database` on it (its own connections; PGlite: over the slot's engine). */
  open(): Promise<Lease>;
  /** Closes and removes it. */
  destroy(): Promise<void>;
  /**
   * Lists it (PGlite: its engine closed), `fingerprint` that of a fresh copy, for the worker's
   * next test file (`test-database-spares.ts`) instead of removing it; false when there is no
   * such list.
   */
  handOver(fingerprint: string): Promise<boolean>;
}

interface Lease {
  database: Database;
  /**
   * Closes the `Database`; with `keep`, the slot stays usable (PGlite: the engine keeps running).
   * Resolves false when it is not: the test closed the PGlite engine itself.
   */
  release(keep: boolean): Promise<boolean>;
}

const newSlot = (kind: DatabaseKind, migrated: boolean, server: string = serverUrl()): Promise<Slot> =>
  kind === 'postgres' ? postgresSlot(migrated, server) : pgliteSlot(migrated);

const leaseNew = async (slot: Slot): Promise<{ slot: Slot; lease: Lease }> => {
  const lease = await slot.open().catch(async (error: unknown) => {
    await slot.destroy();
    throw error;
  });
  return { slot, lease };
};

const postgresSlot = async (migrated: boolean, server: string): Promise<Slot> => {
  const name = `summon_t_${randomBytes(6).toString('hex')}`;
  const template = migrated ? await postgresTemplate(server) : undefined;
  await createPostgresDatabase(server, name, template);
  return postgresSlotOn(server, name);
};

/** A slot on an existing database: one just made, or one an earlier test file handed over. */
const postgresSlotOn = (server: string, name: string): Slot => {
  const databaseUrl = databaseUrlFor(server, name);
  return {
    kind: 'postgres',
    location: databaseUrl,
    open: async () => {
      const database = await openDatabase({ databaseUrl, dbDir: '', checkNesting: true });
      return {
        database,
        release: async () => {
          await database.close();
          return true;
        },
      };
    },
    destroy: () => dropPostgresDatabase(server, name),
    handOver: async (fingerprint) => leaveSpare({ kind: 'postgres', server, location: name, fingerprint }),
  };
};

const pgliteSlot = async (migrated: boolean): Promise<Slot> => {
  const dbDir = await mkdtemp(join(tmpdir(), 'summon-pglite-'));
  await copyDirectory(migrated ? await pgliteMigratedTemplate() : await pgliteTemplate(), dbDir).catch(
    async (error: unknown) => {
      await removeDirectory(dbDir);
      throw error;
    },
  );
  return pgliteSlotOn(dbDir);
};

/** A slot on an existing data directory: a copy just made, or one an earlier test file handed over. */
const pgliteSlotOn = async (dbDir: string): Promise<Slot> => {
  const remove = () => removeDirectory(dbDir);
  const engine = await openPglite(dbDir).catch(async (error: unknown) => {
    await remove();
    throw error;
  });
  let closing: Promise<void> | null = null;
  const closeEngine = () => {
    closing ??= engine.close();
    return closing;
  };
  return {
    kind: 'pglite',
    location: dbDir,
    open: async () => {
      let keeping = false;
      // The database's close closes the engine (as a test that closes it expects), unless released to be kept.
      const connection = {
        poolConfig: engine.poolConfig,
        upkeep: engine.upkeep,
        close: () => (keeping ? Promise.resolve() : closeEngine()),
      };
      const database = await openDatabase({ dbDir, pglite: connection });
      return {
        database,
        release: async (keep) => {
          keeping = keep;
          await database.close();
          return closing === null;
        },
      };
    },
    destroy: async () => {
      try {
        await closeEngine();
      } finally {
        await remove();
      }
    },
    handOver: async (fingerprint) => {
      await closeEngine();
      return leaveSpare({ kind: 'pglite', location: dbDir, fingerprint });
    },
  };
};

/** Kept slots of this test file, by kind, and the fingerprint of a fresh copy of each template. */
const kept: Record<DatabaseKind, Slot[]> = { postgres: [], pglite: [] };
const freshFingerprints: Partial<Record<DatabaseKind, string>> = {};
let drainRegistered = false;

const takeKept = async (kind: DatabaseKind): Promise<{ slot: Slot; lease: Lease }> => {
  if (!drainRegistered) {
    drainRegistered = true;
    onTestFileEnd(closeKept);
  }
  for (let slot = kept[kind].pop(); slot !== undefined; slot = kept[kind].pop()) {
    const lease = await slot.open().catch(() => null);
    if (lease !== null && (await resetIfIntact(lease.database))) return { slot, lease };
    await lease?.release(false).catch(() => {});
    await slot.destroy();
  }
  // One an earlier file of this jest worker handed over, reset as a kept one is.
  for (let spare = takeSpare(kind, serverUrl()); spare !== null; spare = takeSpare(kind, serverUrl())) {
    freshFingerprints[kind] ??= spare.fingerprint;
    const slot =
      spare.kind === 'postgres'
        ? postgresSlotOn(spare.server, spare.location)
        : await pgliteSlotOn(spare.location).catch(() => null);
    if (slot === null) continue;
    const lease = await slot.open().catch(() => null);
    // Emptied by DELETE file after file, its tables would fill with dead rows (PGlite runs no
    // autovacuum): VACUUM, tens of milliseconds, leaves it as fast as a fresh copy.
    if (lease !== null && (await resetIfIntact(lease.database))) {
      await lease.database.dataSource.query('VACUUM');
      return { slot, lease };
    }
    await lease?.release(false).catch(() => {});
    await slot.destroy();
  }
  const fresh = await leaseNew(await newSlot(kind, true));
  if (freshFingerprints[kind] === undefined) {
    await assertResettable(fresh.lease.database);
    freshFingerprints[kind] = await schemaFingerprint(fresh.lease.database);
  }
  return fresh;
};

/** Resets a kept database to the template's data, unless its schema is no longer the template's. */
const resetIfIntact = async (database: Database): Promise<boolean> => {
  try {
    if ((await schemaFingerprint(database)) !== freshFingerprints[database.kind]) return false;
    await resetData(database);
    return true;
  } catch {
    return false;
  }
};

const closeKept = async (): Promise<void> => {
  const slots = [...kept.postgres, ...kept.pglite];
  kept.postgres = [];
  kept.pglite = [];
  for (const slot of slots) {
    const fingerprint = freshFingerprints[slot.kind];
    if (fingerprint !== undefined && (await slot.handOver(fingerprint))) continue;
    await slot.destroy();
  }
};
