import { createHash } from 'node:crypto';
import type { SkillFile } from '../model/skills/skill-files';

/**
 * A6: the hash `skills-lock.json` pins: every entry's path, kind, execute bit and bytes (or
 * link target), in path order, so any change on disk changes it.
 */
export function skillContentHash(files: readonly SkillFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (file.kind === 'directory') continue;
    hash.update(`${file.kind}\0${file.path}\0${file.executable ? 'x' : '-'}\0`);
    if (file.kind === 'symlink') hash.update(file.linkTarget ?? '');
    else if (file.content !== undefined) hash.update(file.content);
    hash.update('\0');
  }
  return `sha256:${hash.digest('hex')}`;
}
