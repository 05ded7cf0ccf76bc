import { randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../../core/errors';
import type { SkillFile } from '../../core/model/skills/skill-files';
import type { SkillLock, SkillSources } from '../../core/model/skills/skill-lock';
import type { SkillLibrary } from '../../core/ports/skill-sources';
import { emptyLock, emptySources, skillLockSchema, skillSourcesSchema } from '../../core/skills/skill-lock';
import { assertSlug, pathInside } from '../../core/workspace/slug';
import { writeFileAtomic } from '../workspace-directory/atomic-write';
import { readSkillFolder } from './read-skill-folder';

export const LOCK_FILE = 'skills-lock.json';
export const SOURCES_FILE = 'skill-sources.json';
/** Refused installed skills are moved here (outside `skills/`, so no link reaches them). */
const QUARANTINE = 'skills-refused';

/**
 * A6 on disk, under `$SUMMON_DATA_DIR/workspaces/<workspace>/`:
 *   skills-lock.json       the installed skills: source, path, commit, content hash, verdict, checked at
 *   skill-sources.json     the registered sources and the optional review agent
 *   skills/<name>/         an installed skill's whole folder, replaced by one rename
 *   skills-refused/<name>-<time>/   a skill refused at start, kept for inspection
 */
export class FileSkillLibrary implements SkillLibrary {
  constructor(private readonly root: string) {}

  async readLock(workspaceSlug: string): Promise<SkillLock> {
    return readSkillLock(this.root, workspaceSlug);
  }

  async writeLock(workspaceSlug: string, lock: SkillLock): Promise<void> {
    await this.writeJson(workspaceSlug, LOCK_FILE, sortedLock(lock));
  }

  async readSources(workspaceSlug: string): Promise<SkillSources> {
    const text = await readFile(this.file(workspaceSlug, SOURCES_FILE), 'utf8').catch(() => null);
    if (text === null) return emptySources();
    return parseJson(text, skillSourcesSchema, SOURCES_FILE);
  }

  async writeSources(workspaceSlug: string, sources: SkillSources): Promise<void> {
    await this.writeJson(workspaceSlug, SOURCES_FILE, sources);
  }

  async installFiles(workspaceSlug: string, name: string, stagingDir: string): Promise<void> {
    const target = this.skillDir(workspaceSlug, name);
    const skillsDir = path.dirname(target);
    await mkdir(skillsDir, { recursive: true });
    const suffix = randomBytes(6).toString('hex');
    // Copied next to the target first (same file system), then swapped in by renames.
    const incoming = path.join(skillsDir, `.${name}.${suffix}.new`);
    const outgoing = path.join(skillsDir, `.${name}.${suffix}.old`);
    try {
      await cp(stagingDir, incoming, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
      const had = await exists(target);
      if (had) await rename(target, outgoing);
      try {
        await rename(incoming, target);
      } catch (error) {
        if (had) await rename(outgoing, target);
        throw error;
      }
      await rm(outgoing, { recursive: true, force: true });
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
  }

  async removeFiles(workspaceSlug: string, name: string): Promise<void> {
    await rm(this.skillDir(workspaceSlug, name), { recursive: true, force: true });
  }

  async readInstalled(workspaceSlug: string, name: string): Promise<SkillFile[] | null> {
    const dir = this.skillDir(workspaceSlug, name);
    const stat = await lstat(dir).catch(() => null);
    if (stat === null || !stat.isDirectory()) return null;
    return readSkillFolder(dir);
  }

  readFolder(dir: string): Promise<SkillFile[]> {
    return readSkillFolder(dir);
  }

  async quarantine(workspaceSlug: string, name: string): Promise<string | null> {
    const dir = this.skillDir(workspaceSlug, name);
    if (!(await exists(dir))) return null;
    const away = pathInside(this.root, assertSlug(workspaceSlug, 'workspace'), QUARANTINE);
    await mkdir(away, { recursive: true });
    const target = path.join(away, `${name}-${Date.now()}-${randomBytes(3).toString('hex')}`);
    await rename(dir, target);
    return target;
  }

  private skillDir(workspaceSlug: string, name: string): string {
    return pathInside(this.root, assertSlug(workspaceSlug, 'workspace'), 'skills', assertSlug(name, 'skill'));
  }

  private file(workspaceSlug: string, name: string): string {
    return pathInside(this.root, assertSlug(workspaceSlug, 'workspace'), name);
  }

  private async writeJson(workspaceSlug: string, name: string, value: unknown): Promise<void> {
    await mkdir(pathInside(this.root, assertSlug(workspaceSlug, 'workspace')), { recursive: true });
    await writeFileAtomic(this.file(workspaceSlug, name), `${JSON.stringify(value, null, 2)}\n`);
  }
}

/** `skills-lock.json` of a workspace (empty when there is none). */
export async function readSkillLock(root: string, workspaceSlug: string): Promise<SkillLock> {
  const file = pathInside(root, assertSlug(workspaceSlug, 'workspace'), LOCK_FILE);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return emptyLock();
  return parseJson(text, skillLockSchema, LOCK_FILE);
}

function parseJson<T>(
  text: string,
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  name: string,
): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`${name} is not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ValidationError(
      `${name} is not valid`,
      parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  return parsed.data;
}

function sortedLock(lock: SkillLock): SkillLock {
  return {
    version: 1,
    skills: Object.fromEntries(Object.entries(lock.skills).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
