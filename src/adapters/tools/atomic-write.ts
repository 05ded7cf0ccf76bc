import { randomBytes } from 'node:crypto';
import { chmod, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A16: replaces a file's content atomically: a temporary file in the same folder (so the rename
 * never crosses a file system), given the old file's mode, then renamed over it. A reader (or
 * a crash) sees the old content or the new one, never half of each.
 */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const mode = (await stat(file)).mode & 0o7777;
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temporary, content, { encoding: 'utf8', flag: 'wx', mode });
    // The umask may have narrowed the mode given at creation.
    await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
