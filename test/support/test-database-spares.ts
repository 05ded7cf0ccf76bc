import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseKind } from '../../src/storage/database';

/**
 * Test databases handed from one test file to the next file the same jest worker runs
 * (`test-database.ts`). A file's kept databases are not removed at its end but listed here, and
 * the worker's next file resets one (as the next test of a file does) instead of copying the
 * template: for PostgreSQL a CREATE DATABASE and a DROP DATABASE (which waits for a checkpoint
 * of the whole server), for PGlite copying and removing a 40 MB directory; on a busy machine
 * each costs a few hundred milliseconds, for every file. A PGlite directory is listed with its
 * engine closed, and the next file starts one on it.
 *
 * Only within one jest run: its global set-up (`jest-global-setup.ts`) makes the folder named by
 * `SUMMON_TEST_SPARES_DIR`, which its workers inherit, and its teardown removes every database
 * still listed. Without that folder (a script, a bench) nothing is handed over.
 */
export type SpareDatabase = {
  /** PostgreSQL: the database's name; PGlite: its data directory. */
  location: string;
  /** The schema fingerprint of a fresh copy of its template (`test-database-reset.ts`). */
  fingerprint: string;
} & (
  | {
      kind: 'postgres' /** The server's URL (its maintenance database), as `serverUrl()` names it. */;
      server: string;
    }
  | { kind: 'pglite' }
);

export const SPARES_DIR_VARIABLE = 'SUMMON_TEST_SPARES_DIR';

/** This worker's list: one jest worker runs one file at a time, so nothing else writes it. */
const listFile = (): string | null => {
  const dir = process.env[SPARES_DIR_VARIABLE];
  const worker = process.env.JEST_WORKER_ID;
  if (dir === undefined || worker === undefined || !existsSync(dir)) return null;
  return join(dir, `worker-${worker}.json`);
};

const read = (file: string): SpareDatabase[] =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SpareDatabase[]) : [];

/** A database of `kind` an earlier file of this worker left (PostgreSQL: on `server`), taken off the list; else null. */
export const takeSpare = (kind: DatabaseKind, server: string): SpareDatabase | null => {
  const file = listFile();
  if (file === null) return null;
  const spares = read(file);
  const index = spares.findIndex(
    (spare) => spare.kind === kind && (spare.kind === 'pglite' || spare.server === server),
  );
  if (index < 0) return null;
  const [spare] = spares.splice(index, 1);
  writeFileSync(file, JSON.stringify(spares));
  return spare ?? null;
};

/** Lists a database (no session open on it) for this worker's next file; false outside a jest run. */
export const leaveSpare = (spare: SpareDatabase): boolean => {
  const file = listFile();
  if (file === null) return false;
  writeFileSync(file, JSON.stringify([...read(file), spare]));
  return true;
};

/** The global teardown's: every database the run's workers left, and the folder removed. */
export const drainSpares = (dir: string): SpareDatabase[] => {
  if (!existsSync(dir)) return [];
  const spares = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => read(join(dir, name)));
  rmSync(dir, { recursive: true, force: true });
  return spares;
};
