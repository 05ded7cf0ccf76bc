import { parse } from 'yaml';
import { z } from 'zod';
import type { SameType } from '../model/same-type';
import type { SkillFrontMatter } from '../model/skills/skill-verdict';
import { SLUG_PATTERN, SLUG_RULE } from '../model/slug';

/**
 * A5, A6: what a `SKILL.md` front matter must hold: a slug `name` (its folder's), a
 * `description` of at most 1024 characters, and, when the skill brings them, the `scripts`
 * (files that may be run) and `assets` (binary files) it lists. Other keys (license,
 * allowed-tools, metadata) are kept as they are.
 */
const relativePath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a path inside the skill');

export const skillFrontMatterSchema = z.looseObject({
  name: z.string().regex(SLUG_PATTERN, SLUG_RULE),
  description: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  scripts: z.array(relativePath).optional(),
  assets: z.array(relativePath).optional(),
});

/** The model's `SkillFrontMatter` is exactly what the schema reads (the compiler checks it). */
export const FRONT_MATTER_MATCHES_THE_MODEL = true satisfies SameType<
  z.output<typeof skillFrontMatterSchema>,
  SkillFrontMatter
>;

export type ParsedSkillMarkdown =
  | { ok: true; frontMatter: SkillFrontMatter; body: string; bodyStartLine: number }
  | { ok: false; problems: string[] };

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseSkillMarkdown(text: string): ParsedSkillMarkdown {
  const match = FRONT_MATTER.exec(text);
  if (match === null)
    return { ok: false, problems: ['SKILL.md does not start with a --- front matter block'] };
  let data: unknown;
  try {
    data = parse(match[1] ?? '');
  } catch (error) {
    return { ok: false, problems: [`front matter is not YAML (${(error as Error).message.split('\n')[0]})`] };
  }
  const parsed = skillFrontMatterSchema.safeParse(data ?? {});
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'front matter'} ${i.message}`),
    };
  const bodyStartLine = match[0].split('\n').length;
  return { ok: true, frontMatter: parsed.data, body: text.slice(match[0].length).trim(), bodyStartLine };
}
