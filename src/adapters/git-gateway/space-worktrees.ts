import { lstat, mkdir, readdir, readFile, readlink, realpath, unlink } from 'node:fs/promises';
import path from 'node:path';
import { activeRepoFor, repoDirName } from '../../core/git/active-repo';
import type { Logger } from '../../core/ports/logger';
import { assertSlug, pathInside } from '../../core/workspace/slug';
import { symlinkAtomic, writeFileAtomic } from '../workspace-directory/atomic-write';
import { runGit } from './git-command';
import { findRepoSkills, type RejectedSkill, type RepoSkillVerdicts } from './repo-skills';
import type { RunGitEnvironment } from './run-git-environment';

/** Repo-bound skill links carry this prefix, so they are told apart from installed skills. */
const REPO_SKILL_MARK = '.repo-skill';

/**
 * M9, A7 on disk, under `$SUMMON_DATA_DIR/workspaces/<workspace>/`:
 *   spaces/<space>/repos/<name>/                   one checkout per space, through the gateway
 *   spaces/<space>/agents/<agent>/                 the agent's overlay working directory:
 *     AGENTS.md -> agents/<agent>/AGENTS.md
 *     .agents/skills/<skill> -> the agent's installed skills, then the active repo's skills
 *     repos/<name> -> ../../../repos/<name>        read-write: agents of a space share edits
 */
export class SpaceWorktrees {
  /** A7: the skill check's verdicts by content hash (this process's cache). */
  readonly skillVerdicts: RepoSkillVerdicts = new Map();

  constructor(private readonly options: { root: string; logger: Logger; home: string }) {}

  reposDir(workspace: string, space: string): string {
    return pathInside(
      this.options.root,
      assertSlug(workspace, 'workspace'),
      'spaces',
      assertSlug(space, 'space'),
      'repos',
    );
  }

  overlayDir(workspace: string, space: string, agent: string): string {
    return pathInside(
      this.options.root,
      assertSlug(workspace, 'workspace'),
      'spaces',
      assertSlug(space, 'space'),
      'agents',
      assertSlug(agent, 'agent'),
    );
  }

  /**
   * Clones each repository the run's git environment covers (or fetches it when already
   * there), through the gateway with the run's credential. `origin` is the gateway URL, which
   * carries no credential; nothing secret is written to `.git/config`.
   */
  async sync(workspace: string, space: string, git: RunGitEnvironment): Promise<Map<string, string>> {
    const reposDir = this.reposDir(workspace, space);
    await mkdir(reposDir, { recursive: true });
    const checkouts = new Map<string, string>();
    for (const repo of git.repos) {
      const dir = pathInside(reposDir, repoDirName(repo));
      const exists = await lstat(path.join(dir, '.git')).then(
        () => true,
        () => false,
      );
      const result = exists
        ? await runGit(['fetch', '--quiet', '--prune', 'origin'], {
            cwd: dir,
            home: this.options.home,
            extraEnv: git.env,
          })
        : await runGit(['clone', '--quiet', git.remoteUrl(repo), dir], {
            home: this.options.home,
            extraEnv: git.env,
          });
      if (result.code !== 0) {
        this.options.logger.warn({ repo, stderr: result.stderr.slice(0, 500) }, 'space checkout failed');
        throw new Error(
          `could not ${exists ? 'fetch' : 'clone'} ${repo}: ${result.stderr.trim().split('\n').pop()}`,
        );
      }
      checkouts.set(repo, dir);
    }
    return checkouts;
  }

  /** M9: the agent's overlay: its own files, the space's repositories linked read-write. */
  async overlay(workspace: string, space: string, agent: string, agentDir: string): Promise<string> {
    const dir = this.overlayDir(workspace, space, agent);
    await mkdir(path.join(dir, 'repos'), { recursive: true });
    await mkdir(path.join(dir, '.agents', 'skills'), { recursive: true });
    await symlinkAtomic(path.relative(dir, path.join(agentDir, 'AGENTS.md')), path.join(dir, 'AGENTS.md'));
    const installed = path.join(agentDir, '.agents', 'skills');
    for (const skill of await readdir(installed).catch(() => [] as string[])) {
      await symlinkAtomic(
        path.relative(path.join(dir, '.agents', 'skills'), path.join(installed, skill)),
        path.join(dir, '.agents', 'skills', skill),
      );
    }
    const reposDir = this.reposDir(workspace, space);
    for (const name of await readdir(reposDir).catch(() => [] as string[])) {
      await symlinkAtomic(
        path.relative(path.join(dir, 'repos'), path.join(reposDir, name)),
        path.join(dir, 'repos', name),
      );
    }
    return dir;
  }

  /**
   * A7: called for each file the agent writes. A write under `repos/<name>/` makes that repo
   * active: its checked skills are linked for the agent and the previous repo's are removed.
   * Returns the active repo (null when the write changed nothing) and the skills refused.
   */
  async noteWrite(
    overlay: string,
    writtenPath: string,
  ): Promise<{ activeRepo: string | null; linked: string[]; rejected: RejectedSkill[] }> {
    const repo = activeRepoFor(overlay, writtenPath);
    if (repo === null) return { activeRepo: null, linked: [], rejected: [] };
    const marker = path.join(overlay, '.agents', REPO_SKILL_MARK);
    const current = await readlink(marker).catch(() => null);
    if (current === repo) return { activeRepo: repo, linked: [], rejected: [] };
    const skillsDir = path.join(overlay, '.agents', 'skills');
    await this.unlinkRepoSkills(skillsDir);
    const { skills, rejected } = await findRepoSkills(path.join(overlay, 'repos', repo), this.skillVerdicts);
    const linked: string[] = [];
    for (const skill of skills) {
      const link = path.join(skillsDir, skill.name);
      // An installed skill of the same name wins.
      if (
        await lstat(link).then(
          () => true,
          () => false,
        )
      ) {
        rejected.push({ path: skill.name, reason: 'an installed skill has this name' });
        continue;
      }
      const target = path.relative(
        skillsDir,
        path.join(overlay, 'repos', repo, path.relative(await realRepo(overlay, repo), skill.dir)),
      );
      await symlinkAtomic(target, link);
      linked.push(skill.name);
    }
    await writeFileAtomic(path.join(overlay, '.agents', `${REPO_SKILL_MARK}s`), `${linked.join('\n')}\n`);
    await symlinkAtomic(repo, marker);
    for (const r of rejected)
      this.options.logger.warn({ repo, skill: r.path, reason: r.reason }, 'repo skill not linked');
    return { activeRepo: repo, linked, rejected };
  }

  /** A6, A7: the skills of the overlay's active repository the check refused (none without one). */
  async refusedSkills(overlay: string): Promise<RejectedSkill[]> {
    const repo = await readlink(path.join(overlay, '.agents', REPO_SKILL_MARK)).catch(() => null);
    if (repo === null) return [];
    const { rejected } = await findRepoSkills(path.join(overlay, 'repos', repo), this.skillVerdicts);
    return rejected.filter((skill) => skill.reason.startsWith('refused by'));
  }

  private async unlinkRepoSkills(skillsDir: string) {
    const listFile = path.join(path.dirname(skillsDir), `${REPO_SKILL_MARK}s`);
    const names = (await readFile(listFile, 'utf8').catch(() => '')).split('\n').filter((n) => n !== '');
    for (const name of names) {
      const link = path.join(skillsDir, name);
      if ((await lstat(link).catch(() => null))?.isSymbolicLink()) await unlink(link);
    }
  }
}

async function realRepo(overlay: string, repo: string): Promise<string> {
  return realpath(path.join(overlay, 'repos', repo));
}
