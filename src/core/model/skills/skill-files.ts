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
