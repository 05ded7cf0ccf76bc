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
