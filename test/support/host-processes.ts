import { spawnSync } from 'node:child_process';

/**
 * Host pids whose command line matches `pattern` (pgrep -f), except this process. A sandboxed
 * process reports the pids of its own pid namespace, so "no process left behind" is checked
 * on the host by command line.
 */
export function hostProcessesMatching(pattern: string): number[] {
  const found = spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' });
  return found.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/** A regular expression matching `text` literally (for pgrep). */
export const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
