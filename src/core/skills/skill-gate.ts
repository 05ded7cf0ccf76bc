import path from 'node:path/posix';
import type { SkillFile } from '../model/skills/skill-files';
import type { GateFinding, GateReport } from '../model/skills/skill-verdict';
import { matchLine } from './instruction-patterns';
import { DEFAULT_SKILL_LIMITS, type SkillLimits } from './skill-files';
import { parseSkillMarkdown } from './skill-front-matter';
import { verdictOf } from './skill-verdict';

/** Files whose name says they are run (a script must be listed in `scripts`). */
const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|fish|py|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|exe|bin)$/i;

/**
 * A6 (and A7 for repo-bound skills): the deterministic half of the supply-chain check over a
 * skill folder's entries. Pure: the same files give the same findings, each with its file
 * and, for instructions, its line.
 */
export function checkSkillFiles(
  folderName: string,
  files: readonly SkillFile[],
  limits: SkillLimits = DEFAULT_SKILL_LIMITS,
): GateReport {
  const skillMd = files.find((f) => f.path === 'SKILL.md');
  const head = checkSkillMd(folderName, skillMd, limits);
  const findings: GateFinding[] = [...head.findings, ...checkFolderSize(files, limits)];
  for (const file of files) findings.push(...checkEntry(file, skillMd, limits, head));
  return { findings, verdict: verdictOf(findings), skill: head.skill };
}

/** What SKILL.md says: the skill, the files it lists as scripts and assets, and its findings. */
interface SkillMdCheck {
  findings: GateFinding[];
  skill: GateReport['skill'];
  scripts: Set<string>;
  assets: Set<string>;
}

function checkSkillMd(folderName: string, skillMd: SkillFile | undefined, limits: SkillLimits): SkillMdCheck {
  const check: SkillMdCheck = { findings: [], skill: null, scripts: new Set(), assets: new Set() };
  if (skillMd === undefined || skillMd.kind !== 'file' || skillMd.content === undefined) {
    check.findings.push({ rule: 'front-matter', file: 'SKILL.md', message: 'there is no SKILL.md file' });
    return check;
  }
  if (skillMd.size > limits.maxSkillMdBytes) {
    check.findings.push({
      rule: 'size',
      file: 'SKILL.md',
      message: `is ${skillMd.size} bytes, more than ${limits.maxSkillMdBytes}`,
    });
    return check;
  }
  const parsed = parseSkillMarkdown(skillMd.content.toString('utf8'));
  if (!parsed.ok) {
    for (const problem of parsed.problems)
      check.findings.push({ rule: 'front-matter', file: 'SKILL.md', line: 1, message: problem });
    return check;
  }
  if (parsed.frontMatter.name !== folderName)
    check.findings.push({
      rule: 'front-matter',
      file: 'SKILL.md',
      line: 1,
      message: `name "${parsed.frontMatter.name}" is not its folder's "${folderName}"`,
    });
  check.skill = { frontMatter: parsed.frontMatter, body: parsed.body };
  check.scripts = new Set(parsed.frontMatter.scripts ?? []);
  check.assets = new Set(parsed.frontMatter.assets ?? []);
  return check;
}

/** The folder's bounds: how many files, and how many bytes in all. */
function checkFolderSize(files: readonly SkillFile[], limits: SkillLimits): GateFinding[] {
  const findings: GateFinding[] = [];
  const regular = files.filter((f) => f.kind !== 'directory');
  if (regular.length > limits.maxFiles)
    findings.push({
      rule: 'size',
      file: '.',
      message: `${regular.length} files, more than ${limits.maxFiles}`,
    });
  const total = regular.reduce((sum, f) => sum + f.size, 0);
  if (total > limits.maxTotalBytes)
    findings.push({
      rule: 'size',
      file: '.',
      message: `${total} bytes in all, more than ${limits.maxTotalBytes}`,
    });
  return findings;
}

/** One entry of the folder: hidden, a link out, too large, or a file whose content is checked. */
function checkEntry(
  file: SkillFile,
  skillMd: SkillFile | undefined,
  limits: SkillLimits,
  listed: Pick<SkillMdCheck, 'scripts' | 'assets'>,
): GateFinding[] {
  if (file.path.split('/').some((part) => part.startsWith('.')))
    return [{ rule: 'hidden-file', file: file.path, message: 'hidden files are not allowed' }];
  if (file.kind === 'directory') return [];
  if (file.kind === 'other')
    return [{ rule: 'symlink', file: file.path, message: 'not a regular file, folder or link' }];
  if (file.kind === 'symlink') {
    const target = file.linkTarget ?? '';
    const resolved = path.normalize(path.join(path.dirname(file.path), target));
    return path.isAbsolute(target) || resolved === '..' || resolved.startsWith('../')
      ? [{ rule: 'symlink', file: file.path, message: `links out of the skill (to ${target})` }]
      : [];
  }
  if (file.size > limits.maxFileBytes && file !== skillMd)
    return [
      { rule: 'size', file: file.path, message: `is ${file.size} bytes, more than ${limits.maxFileBytes}` },
    ];
  return checkFile(file, listed.scripts, listed.assets);
}

function checkFile(file: SkillFile, scripts: Set<string>, assets: Set<string>): GateFinding[] {
  const findings: GateFinding[] = [];
  const content = file.content ?? Buffer.alloc(0);
  const binary = isBinary(content);
  if (binary) {
    if (!assets.has(file.path) && !scripts.has(file.path))
      findings.push({ rule: 'binary', file: file.path, message: 'a binary file not listed in `assets`' });
    if (file.executable)
      findings.push({ rule: 'executable', file: file.path, message: 'an executable binary' });
    return findings;
  }
  const text = content.toString('utf8');
  const looksRun = file.executable || SCRIPT_EXTENSIONS.test(file.path) || text.startsWith('#!');
  if (looksRun && !scripts.has(file.path))
    findings.push({
      rule: file.executable ? 'executable' : 'unlisted-script',
      file: file.path,
      message: file.executable ? 'an executable not listed in `scripts`' : 'a script not listed in `scripts`',
    });
  for (const [index, line] of text.split('\n').entries()) {
    for (const match of matchLine(line))
      findings.push({ rule: match.rule, file: file.path, line: index + 1, message: match.message });
  }
  return findings;
}

/** NUL bytes or bytes that are not UTF-8 text. */
function isBinary(content: Buffer): boolean {
  if (content.includes(0)) return true;
  return Buffer.from(content.toString('utf8'), 'utf8').compare(content) !== 0;
}
