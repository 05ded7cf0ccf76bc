import { randomBytes } from 'node:crypto';
import { chmod, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What a file looked like when it was read: an edit lands only if it still does. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export const stampOf = async (file: string): Promise<FileStamp> => {
  const { size, mtimeMs } = await stat(file);
  return { size, mtimeMs };
};

/** The file changed after it was read: writing would drop another writer's change. */
export class ChangedMeanwhile extends Error {}

/**
 * A16: replaces a file's content atomically: a temporary file in the same folder (so the rename
 * never crosses a file system), given the old file's mode, then renamed over it. A reader (or
 * a crash) sees the old content or the new one, never half of each. With `readAs`, the file
 * must still be as it was read, or nothing is written (`ChangedMeanwhile`).
 */
export async function writeFileAtomic(file: string, content: string, readAs?: FileStamp): Promise<void> {
  const mode = (await stat(file)).mode & 0o7777;
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temporary, content, { encoding: 'utf8', flag: 'wx', mode });
    // The umask may have narrowed the mode given at creation.
    await chmod(temporary, mode);
    if (readAs !== undefined) {
      const now = await stampOf(file);
      if (now.size !== readAs.size || now.mtimeMs !== readAs.mtimeMs) throw new ChangedMeanwhile();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
