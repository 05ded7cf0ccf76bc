import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type PgliteEngineOptions, startPgliteEngine, type UpkeepReport } from './pglite-engine';
import { PgliteSocket } from './pglite-socket';

/**
 * The embedded database in `dbDir` (created if missing), as `pg` pool options for TypeORM's
 * postgres driver.
 *
 * Not `typeorm-pglite`: its driver keeps one process-wide PGlite instance (a second database
 * in the same process would silently share the first one's files) and runs PGlite on the
 * event loop. Here the ordinary `pg` driver talks to PGlite as to a server, so the embedded and
 * the server database parse types and report errors the same way.
 */
export interface PgliteConnection {
  /** `extra` options for TypeORM's postgres driver. */
  readonly poolConfig: object;
  /** What the engine's upkeep (`VACUUM (ANALYZE)`, PGlite having no autovacuum) did so far. */
  readonly upkeep: UpkeepReport;
  close(): Promise<void>;
}

export const openPglite = async (
  dbDir: string,
  options: PgliteEngineOptions = {},
): Promise<PgliteConnection> => {
  const dataDir = resolve(dbDir);
  await mkdir(dataDir, { recursive: true });
  const engine = await startPgliteEngine(dataDir, options);
  return {
    upkeep: engine.upkeep,
    poolConfig: {
      // PGlite is a single session: one connection, whose client pg re-creates if it breaks.
      max: 1,
      stream: () => new PgliteSocket(engine),
      host: 'pglite',
      user: 'postgres',
      database: 'postgres',
    },
    close: () => engine.close(),
  };
};
