import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { SkillFile } from '../../core/model/skills/skill-files';

/** Past this many entries the walk stops: the gate's size rule refuses the skill anyway. */
const MAX_ENTRIES = 2_000;
/** Files larger than this are not read into memory (the gate refuses them by size). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** A6: every entry of a skill folder as the gate reads it; links are described, never followed. */
export async function readSkillFolder(dir: string): Promise<SkillFile[]> {
  const files: SkillFile[] = [];
  const walk = async (relative: string): Promise<void> => {
    const names = (await readdir(path.join(dir, relative))).sort();
    for (const name of names) {
      if (files.length >= MAX_ENTRIES) return;
      const rel = relative === '' ? name : `${relative}/${name}`;
      const full = path.join(dir, rel);
      const stat = await lstat(full);
      if (stat.isSymbolicLink()) {
        files.push({
          path: rel,
          kind: 'symlink',
          size: 0,
          executable: false,
          linkTarget: await readlink(full),
        });
      } else if (stat.isDirectory()) {
        files.push({ path: rel, kind: 'directory', size: 0, executable: false });
        await walk(rel);
      } else if (stat.isFile()) {
        const executable = (stat.mode & 0o111) !== 0;
        files.push({
          path: rel,
          kind: 'file',
          size: stat.size,
          executable,
          ...(stat.size <= MAX_READ_BYTES ? { content: await readFile(full) } : {}),
        });
      } else {
        files.push({ path: rel, kind: 'other', size: 0, executable: false });
      }
    }
  };
  await walk('');
  return files;
}
