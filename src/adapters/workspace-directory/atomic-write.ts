import { randomBytes } from 'node:crypto';
import { rename, rm, symlink, writeFile } from 'node:fs/promises';

/** Writes through a temporary sibling and a rename, so a reader never sees half a file. */
export async function writeFileAtomic(target: string, content: string): Promise<void> {
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { encoding: 'utf8', mode: 0o644 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Points `link` at `target`, replacing whatever was there, with the same rename trick. */
export async function symlinkAtomic(target: string, link: string): Promise<void> {
  const temporary = `${link}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await symlink(target, temporary);
    await rename(temporary, link);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
