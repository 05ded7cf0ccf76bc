/**
 * A6: `skill-sources.json` and `skills-lock.json` as the core and its ports use them;
 * `skills/skill-lock.ts` reads them with zod and checks that its schemas give exactly these.
 */

/**
 * A registered skill source: a GitHub repository whose skill folders sit under `path`
 * (default `skills`; `.` for the repository's root), followed at `ref` (default branch).
 */
export interface SkillSource {
  repo: string;
  path?: string | undefined;
  ref?: string | undefined;
}

export interface SkillSources {
  sources: SkillSource[];
  /** The optional model review: the named agent's runner reads each skill before a pass. */
  review?: { agent: string } | undefined;
}

/** One installed skill as `skills-lock.json` pins it. */
export interface LockEntry {
  source: string;
  path: string;
  commit: string;
  contentHash: string;
  verdict: 'pass';
  reviewedBy?: string | undefined;
  checkedAt: string;
}

export interface SkillLock {
  version: 1;
  skills: Record<string, LockEntry>;
}
