import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The embedded engine's version: a data directory made by one version may not open in another. */
export const pgliteVersion = (): string => {
  const packageJson = join(dirname(require.resolve('@electric-sql/pglite')), '../package.json');
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
};
