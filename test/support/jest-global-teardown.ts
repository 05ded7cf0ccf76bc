import { dropPostgresDatabase } from '../../src/storage/server-admin';
import { removeDirectory } from './directory-copy';
import { drainSpares, SPARES_DIR_VARIABLE } from './test-database-spares';

/**
 * jest `globalTeardown`: removes the test databases (PostgreSQL databases, PGlite directories) the
 * run's last files left for a next file (`test-database-spares.ts`), so a run leaves none behind.
 */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[SPARES_DIR_VARIABLE];
  if (dir === undefined) return;
  for (const spare of drainSpares(dir)) {
    if (spare.kind === 'postgres') await dropPostgresDatabase(spare.server, spare.location);
    else await removeDirectory(spare.location);
  }
}
