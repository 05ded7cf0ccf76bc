import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPARES_DIR_VARIABLE } from './test-database-spares';

/**
 * jest `globalSetup`: the folder where this run's workers hand PostgreSQL test databases from one
 * test file to the next (`test-database-spares.ts`). Workers start after this and inherit it.
 */
export default function globalSetup(): void {
  process.env[SPARES_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'summon-test-spares-'));
}
