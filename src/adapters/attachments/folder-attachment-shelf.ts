import { randomUUID } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeFileName } from '../../core/attachments/safe-file-name';
import type { AttachmentShelf } from '../../core/ports/attachment-fetcher';

/** The folder of a run's working directory where attached files are kept. */
export const ATTACHMENTS_FOLDER = 'attachments';

/**
 * P13: attached files kept in the run's working folder, under `attachments/<name>`. The folder
 * must be a real directory (a link the agent made there is refused, so nothing is written
 * outside the working folder); each file is written beside its place and renamed into it, so
 * a file of the same name is replaced whole and a link of that name is replaced, not followed.
 */
export class FolderAttachmentShelf implements AttachmentShelf {
  async save(dir: string, fileName: string, bytes: Uint8Array): Promise<string> {
    const folder = path.join(dir, ATTACHMENTS_FOLDER);
    await mkdir(folder, { recursive: true });
    const info = await lstat(folder);
    if (!info.isDirectory())
      throw new Error(`${ATTACHMENTS_FOLDER}/ in the working folder is not a directory`);
    const name = safeFileName(fileName);
    const target = path.join(folder, name);
    const temporary = path.join(folder, `.${name}.${randomUUID()}.part`);
    try {
      await writeFile(temporary, bytes, { flag: 'wx', mode: 0o644 });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return `${ATTACHMENTS_FOLDER}/${name}`;
  }
}
