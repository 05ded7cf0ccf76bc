/** What a skill folder holds, as the gate reads it (A6): every entry, links not followed. */
export type SkillFileKind = 'file' | 'symlink' | 'directory' | 'other';

export interface SkillFile {
  /** Relative to the skill folder, `/`-separated. */
  path: string;
  kind: SkillFileKind;
  size: number;
  /** Any execute bit set (files only). */
  executable: boolean;
  /** The bytes of a regular file. */
  content?: Buffer;
  /** Where a symbolic link points, as written. */
  linkTarget?: string;
}

/** Bounds on a skill folder (A6: sizes bounded). */
export interface SkillLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxSkillMdBytes: number;
}

export const DEFAULT_SKILL_LIMITS: SkillLimits = {
  maxFiles: 200,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 5 * 1024 * 1024,
  maxSkillMdBytes: 64 * 1024,
};
