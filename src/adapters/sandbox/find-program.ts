import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin'];

/**
 * The first executable `name` on `searchPath`, then in the system's folders unless
 * `pathOnly` (what a user's PATH finds, and nothing else), if any.
 */
export function findProgram(
  name: string,
  searchPath = process.env.PATH ?? '',
  options: { pathOnly?: boolean } = {},
): string | undefined {
  const dirs = [...searchPath.split(path.delimiter), ...(options.pathOnly ? [] : SYSTEM_DIRS)];
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
