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
  const findings: GateFinding[] = [];
  const skillMd = files.find((f) => f.path === 'SKILL.md');
  let skill: GateReport['skill'] = null;
  let listedScripts = new Set<string>();
  let listedAssets = new Set<string>();

  if (skillMd === undefined || skillMd.kind !== 'file' || skillMd.content === undefined) {
    findings.push({ rule: 'front-matter', file: 'SKILL.md', message: 'there is no SKILL.md file' });
  } else if (skillMd.size > limits.maxSkillMdBytes) {
    findings.push({
      rule: 'size',
      file: 'SKILL.md',
      message: `is ${skillMd.size} bytes, more than ${limits.maxSkillMdBytes}`,
    });
  } else {
    const parsed = parseSkillMarkdown(skillMd.content.toString('utf8'));
    if (!parsed.ok) {
      for (const problem of parsed.problems)
        findings.push({ rule: 'front-matter', file: 'SKILL.md', line: 1, message: problem });
    } else {
      if (parsed.frontMatter.name !== folderName)
        findings.push({
          rule: 'front-matter',
          file: 'SKILL.md',
          line: 1,
          message: `name "${parsed.frontMatter.name}" is not its folder's "${folderName}"`,
        });
      skill = { frontMatter: parsed.frontMatter, body: parsed.body };
      listedScripts = new Set(parsed.frontMatter.scripts ?? []);
      listedAssets = new Set(parsed.frontMatter.assets ?? []);
    }
  }

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

  for (const file of files) {
    if (file.path.split('/').some((part) => part.startsWith('.'))) {
      findings.push({ rule: 'hidden-file', file: file.path, message: 'hidden files are not allowed' });
      continue;
    }
    if (file.kind === 'directory') continue;
    if (file.kind === 'other') {
      findings.push({ rule: 'symlink', file: file.path, message: 'not a regular file, folder or link' });
      continue;
    }
    if (file.kind === 'symlink') {
      const target = file.linkTarget ?? '';
      const resolved = path.normalize(path.join(path.dirname(file.path), target));
      if (path.isAbsolute(target) || resolved === '..' || resolved.startsWith('../'))
        findings.push({ rule: 'symlink', file: file.path, message: `links out of the skill (to ${target})` });
      continue;
    }
    if (file.size > limits.maxFileBytes && file !== skillMd) {
      findings.push({
        rule: 'size',
        file: file.path,
        message: `is ${file.size} bytes, more than ${limits.maxFileBytes}`,
      });
      continue;
    }
    findings.push(...checkFile(file, listedScripts, listedAssets));
  }
  return { findings, verdict: verdictOf(findings), skill };
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
