import { z } from 'zod';
import type { SameType } from '../model/same-type';
import type { LockEntry, SkillLock, SkillSource, SkillSources } from '../model/skills/skill-lock';
import { SLUG_PATTERN, SLUG_RULE } from '../model/slug';

export const REPO_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
export const REPO_RULE = 'must be a GitHub repository "owner/name"';
const SOURCE_PATH = /^(\.|[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*)$/;

/**
 * A6: a registered skill source: a GitHub repository whose skill folders sit under `path`
 * (default `skills`; `.` for the repository's root), followed at `ref` (default branch).
 */
export const skillSourceSchema = z.strictObject({
  repo: z.string().regex(REPO_PATTERN, REPO_RULE),
  path: z
    .string()
    .regex(SOURCE_PATH, 'must be a folder path inside the repository')
    .refine((p) => !p.split('/').includes('..'), 'must stay inside the repository')
    .optional(),
  ref: z
    .string()
    .regex(/^[A-Za-z0-9_./-]+$/, 'must be a branch, tag or commit')
    .optional(),
});

/** A6: the optional model review: the named agent's runner reads each skill before a pass. */
export const skillReviewSchema = z.strictObject({ agent: z.string().regex(SLUG_PATTERN, SLUG_RULE) });

export const skillSourcesSchema = z.strictObject({
  sources: z.array(skillSourceSchema),
  review: skillReviewSchema.optional(),
});

/** A6: one installed skill as `skills-lock.json` pins it. */
export const lockEntrySchema = z.strictObject({
  source: z.string().regex(REPO_PATTERN, REPO_RULE),
  path: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40,64}$/, 'must be a commit id'),
  contentHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256:<hex>'),
  verdict: z.literal('pass'),
  reviewedBy: z.string().optional(),
  checkedAt: z.string().min(1),
});

export const skillLockSchema = z.strictObject({
  version: z.literal(1),
  skills: z.record(z.string().regex(SLUG_PATTERN, SLUG_RULE), lockEntrySchema),
});

/** The model's declarations (`model/skill-lock.ts`) are exactly what these schemas read (the compiler checks it). */
export const LOCK_FILES_MATCH_THE_MODEL: readonly true[] = [
  true satisfies SameType<z.output<typeof skillSourceSchema>, SkillSource>,
  true satisfies SameType<z.output<typeof skillSourcesSchema>, SkillSources>,
  true satisfies SameType<z.output<typeof lockEntrySchema>, LockEntry>,
  true satisfies SameType<z.output<typeof skillLockSchema>, SkillLock>,
];

export const emptyLock = (): SkillLock => ({ version: 1, skills: {} });
export const emptySources = (): SkillSources => ({ sources: [] });

export const sourcePath = (source: SkillSource): string => source.path ?? 'skills';
export const skillPathIn = (source: SkillSource, name: string): string =>
  sourcePath(source) === '.' ? name : `${sourcePath(source)}/${name}`;
