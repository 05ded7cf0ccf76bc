import { realpathSync } from 'node:fs';
import path from 'node:path';
import { findProgram } from '../../sandbox/find-program';

/**
 * X1: what a CLI agent's own program needs to be visible (read-only) in its sandbox: the folder
 * its `command` starts it from (so a symlink such as `bin/claude` keeps pointing where it did)
 * and the folder of the file it resolves to (the package next to it). Programs under the
 * system folders need nothing more; mounting them again is harmless.
 */
export function programPaths(command: string, searchPath: string): string[] {
  const words = command.trim().split(/\s+/);
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  if (program === undefined || program === '') return [];
  const file = program.includes('/') ? path.resolve(program) : findProgram(program, searchPath);
  if (file === undefined) return [];
  return withRealFolder(file);
}

/** The Node binary the hook script runs on. */
export function nodePaths(): string[] {
  return withRealFolder(process.execPath);
}

function withRealFolder(file: string): string[] {
  try {
    return [...new Set([path.dirname(file), path.dirname(realpathSync(file))])];
  } catch {
    return [];
  }
}
