import { dropPostgresDatabase } from '../../src/storage/server-admin';
import { drainSpares, SPARES_DIR_VARIABLE } from './test-database-spares';

/**
 * jest `globalTeardown`: drops the PostgreSQL test databases the run's last files left for a next
 * file (`test-database-spares.ts`), so a run leaves none behind.
 */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[SPARES_DIR_VARIABLE];
  if (dir === undefined) return;
  for (const spare of drainSpares(dir)) await dropPostgresDatabase(spare.server, spare.name);
}
