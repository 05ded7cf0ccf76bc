import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Copies the contents of `from` into the existing directory `to` with the system's `cp`.
 * A PGlite data directory is some 1,100 files: node's `fs.cp` walks them in JavaScript and
 * takes several times as long as `cp`, which made copying the template most of what opening a
 * PGlite test database cost on a busy machine.
 */
export const copyDirectory = async (from: string, to: string): Promise<void> => {
  await run('cp', ['-R', '--', `${from}/.`, to]);
};

/** Removes a directory tree with the system's `rm` (for large trees, like `copyDirectory`). */
export const removeDirectory = async (dir: string): Promise<void> => {
  await run('rm', ['-rf', '--', dir]);
};
