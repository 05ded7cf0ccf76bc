import path from 'node:path';

/**
 * A7: writing a file under `repos/<name>/` of an agent's working directory makes that repo
 * active; a path anywhere else (or a read) changes nothing. Returns the repo directory name,
 * or null.
 */
export function activeRepoFor(workingDir: string, writtenPath: string): string | null {
  const relative = path.relative(path.resolve(workingDir), path.resolve(workingDir, writtenPath));
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [top, name, ...rest] = relative.split(path.sep);
  if (top !== 'repos' || name === undefined || name === '' || rest.length === 0) return null;
  return name;
}

/** M9: the directory a space checks a repository out in: its name (`owner/name` → `name`). */
export function repoDirName(repo: string): string {
  const name = repo.split('/')[1] ?? repo;
  return name.replace(/\.git$/, '');
}

/** A7: where repo-bound skills live inside a repository. */
export const REPO_SKILL_DIRS = ['.agents/skills', '.claude/skills', '.opencode/skills'] as const;
