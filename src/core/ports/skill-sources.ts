import type { SkillFile } from '../model/skills/skill-files';
import type { SkillLock, SkillSources } from '../model/skills/skill-lock';
import type { GateReport, GateVerdict } from '../model/skills/skill-verdict';

/** A skill folder fetched at one commit into a temporary folder (A6: not `skills/` yet). */
export interface FetchedSkill {
  repo: string;
  path: string;
  commit: string;
  files: SkillFile[];
  /** The temporary folder holding exactly `files`; `dispose` removes it. */
  stagingDir: string;
  dispose(): Promise<void>;
}

/** What a source offers. Every field but `path` is the repository's own words: untrusted (A6). */
export interface SourceListing {
  repo: string;
  commit: string;
  /** Untrusted display data (A6). */
  description: string | null;
  /** Untrusted display data (A6). */
  stars: number | null;
  skills: { name: string; path: string; description: string | null }[];
}

/**
 * A6: reaches GitHub for skill sources. Throws (an `AppError`) when it cannot fetch: a
 * verdict then cannot be reached and nothing is written.
 */
export interface SkillFetcher {
  /** The folder `path` of `repo` at `ref` (the default branch when absent), every file. */
  fetchSkill(repo: string, path: string, ref?: string): Promise<FetchedSkill>;
  /** The skill folders under `path` of `repo`, with the repository's metadata. */
  listSkills(repo: string, path: string, ref?: string): Promise<SourceListing>;
}

/**
 * A6: the optional second opinion: a model reads the skill and answers pass or fail with
 * reasons. Throws when it cannot answer (no verdict: nothing is written).
 */
export interface SkillReviewer {
  review(skill: { name: string; files: readonly SkillFile[]; report: GateReport }): Promise<GateVerdict>;
}

/**
 * A6 on disk, per workspace: `skills-lock.json`, `skill-sources.json`, and the installed
 * skill folders under `skills/<name>/` (written only from a passed staging folder, replaced
 * atomically).
 */
export interface SkillLibrary {
  readLock(workspaceSlug: string): Promise<SkillLock>;
  writeLock(workspaceSlug: string, lock: SkillLock): Promise<void>;
  readSources(workspaceSlug: string): Promise<SkillSources>;
  writeSources(workspaceSlug: string, sources: SkillSources): Promise<void>;
  /** Replaces `skills/<name>/` by the staging folder's content in one rename. */
  installFiles(workspaceSlug: string, name: string, stagingDir: string): Promise<void>;
  removeFiles(workspaceSlug: string, name: string): Promise<void>;
  /** The files of `skills/<name>/`, or null when the folder is gone. */
  readInstalled(workspaceSlug: string, name: string): Promise<SkillFile[] | null>;
  /** The files of any folder (`summon skills check <path>`). */
  readFolder(dir: string): Promise<SkillFile[]>;
  /** Moves a refused skill's folder out of `skills/` (kept for inspection); answers where. */
  quarantine(workspaceSlug: string, name: string): Promise<string | null>;
}
