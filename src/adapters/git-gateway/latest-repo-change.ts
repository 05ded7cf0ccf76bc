import { stat } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './git-command';

/** At most this many changed files of one repository are looked at. */
const MAX_CHANGED = 200;

/**
 * A7 for writes Summon does not see itself (`bash`, a CLI agent's own tools): the change made
 * most recently since `since` in the overlay's repositories — a changed or new file, or a new
 * commit/checkout (`.git/logs/HEAD`) — as a path under `repos/<name>/`, or null when none.
 */
export async function latestRepoChange(
  overlay: string,
  repoDirs: readonly string[],
  since: Date,
  home: string,
): Promise<string | null> {
  let latest: { path: string; at: number } | null = null;
  const consider = async (relative: string) => {
    const at = (await stat(path.join(overlay, relative)).catch(() => null))?.mtimeMs;
    if (at !== undefined && at >= since.getTime() && (latest === null || at > latest.at))
      latest = { path: relative, at };
  };
  for (const name of repoDirs) {
    const repo = path.join('repos', name);
    await consider(path.join(repo, '.git', 'logs', 'HEAD'));
    const status = await runGit(['status', '--porcelain', '-z', '--untracked-files=all'], {
      cwd: path.join(overlay, repo),
      home,
    });
    if (status.code !== 0) continue;
    const changed = status.stdout
      .split('\0')
      .filter((entry) => entry.length > 3)
      .slice(0, MAX_CHANGED);
    for (const entry of changed) await consider(path.join(repo, entry.slice(3)));
  }
  return (latest as { path: string } | null)?.path ?? null;
}
