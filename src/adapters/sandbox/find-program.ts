import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The first executable `name` on `searchPath` (or the fixed fallbacks), if any. */
export function findProgram(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  const dirs = [...searchPath.split(':'), '/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
