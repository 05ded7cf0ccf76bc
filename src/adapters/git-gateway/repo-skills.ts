import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { REPO_SKILL_DIRS } from '../../core/git/active-repo';
import type { GateVerdict } from '../../core/model/skills/skill-verdict';
import { skillContentHash } from '../../core/skills/content-hash';
import { checkSkillFiles } from '../../core/skills/skill-gate';
import { formatFinding } from '../../core/skills/skill-verdict';
import { skillEntrySchema } from '../../core/workspace/workspace-file-schema';
import { readSkillFolder } from '../skill-sources/read-skill-folder';

export interface RepoSkill {
  name: string;
  dir: string;
}

export interface RejectedSkill {
  path: string;
  reason: string;
}

/** A7: the gate's verdicts by content hash, so an unchanged skill is not checked again. */
export type RepoSkillVerdicts = Map<string, GateVerdict>;

/**
 * A7: the skills a repository carries, each checked as an installed skill is: a slug name, a
 * real directory inside the repository (no link out of it), a `SKILL.md` file whose front
 * matter passes the workspace file's skill schema (name matching the folder, description at
 * most 1024 characters). The first folder wins when two define one name.
 */
export async function findRepoSkills(
  repoDir: string,
  verdicts: RepoSkillVerdicts = new Map(),
): Promise<{ skills: RepoSkill[]; rejected: RejectedSkill[] }> {
  const root = await realpath(repoDir);
  const skills: RepoSkill[] = [];
  const rejected: RejectedSkill[] = [];
  for (const base of REPO_SKILL_DIRS) {
    const dir = path.join(root, base);
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const name of entries.sort()) {
      const skillDir = path.join(dir, name);
      const reason =
        (await skillProblem(root, skillDir, name)) ?? (await gateProblem(skillDir, name, verdicts));
      if (reason !== null) {
        rejected.push({ path: path.join(base, name), reason });
        continue;
      }
      if (skills.some((s) => s.name === name)) {
        rejected.push({ path: path.join(base, name), reason: `a skill named "${name}" came first` });
        continue;
      }
      skills.push({ name, dir: skillDir });
    }
  }
  return { skills, rejected };
}

/**
 * A6, A7: cloned content whose front matter reaches the prompt passes the supply-chain check
 * an installed skill passes (cached by content hash); a failing skill is left out with its reasons.
 */
async function gateProblem(
  skillDir: string,
  name: string,
  verdicts: RepoSkillVerdicts,
): Promise<string | null> {
  const files = await readSkillFolder(skillDir);
  const hash = skillContentHash(files);
  let verdict = verdicts.get(hash);
  if (verdict === undefined) {
    verdict = checkSkillFiles(name, files).verdict;
    verdicts.set(hash, verdict);
  }
  if (verdict.verdict === 'pass') return null;
  return `refused by the skill check: ${verdict.reasons.map(formatFinding).join('; ')}`;
}

async function skillProblem(root: string, skillDir: string, name: string): Promise<string | null> {
  const stat = await lstat(skillDir);
  if (stat.isSymbolicLink()) return 'a link, not a folder';
  if (!stat.isDirectory()) return 'not a folder';
  const real = await realpath(skillDir);
  if (!real.startsWith(root + path.sep)) return 'outside the repository';
  const file = path.join(skillDir, 'SKILL.md');
  const fileStat = await lstat(file).catch(() => null);
  if (fileStat === null || !fileStat.isFile()) return 'no SKILL.md file';
  let data: Record<string, unknown>;
  try {
    data = matter(await readFile(file, 'utf8')).data;
  } catch (error) {
    return `SKILL.md front matter does not parse (${(error as Error).message})`;
  }
  const parsed = skillEntrySchema.safeParse({
    name: data.name ?? name,
    ...(data.description === undefined ? {} : { description: data.description }),
  });
  if (!parsed.success)
    return parsed.error.issues.map((i) => `${i.path.join('.') || 'skill'} ${i.message}`).join('; ');
  if (parsed.data.name !== name) return `its name "${parsed.data.name}" is not its folder's "${name}"`;
  return null;
}
