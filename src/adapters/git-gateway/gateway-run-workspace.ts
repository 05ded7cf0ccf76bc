import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoDirName } from '../../core/git/active-repo';
import type { Logger } from '../../core/ports/logger';
import type {
  PreparedWorkspace,
  RefusedRepoSkill,
  RepoSkillBody,
  RunWorkspace,
  RunWorkspaceRequest,
} from '../../core/ports/run-workspace';
import { latestRepoChange } from './latest-repo-change';
import { findRepoSkills, type RejectedSkill, type RepoSkillVerdicts } from './repo-skills';
import type { RunGitEnvironment } from './run-git-environment';
import type { SpaceWorktrees } from './space-worktrees';

export interface GatewayRunWorkspaceDeps {
  worktrees: SpaceWorktrees;
  /** G3: issues the run's credential and its git environment; null when the space has no repos. */
  environment(runId: string): Promise<RunGitEnvironment | null>;
  /** G3: ends the run's credentials. */
  revoke(runId: string): Promise<unknown>;
  /** HOME for the `git status` taken at the end of a run (the gateway's own: no user config). */
  gitHome: string;
  logger: Logger;
}

interface OpenRun {
  overlay: string;
  repoDirs: string[];
  since: Date;
  /** A6, A7: tells the run's status card about a repo skill left out. */
  refused: (skill: RefusedRepoSkill) => void;
}

/**
 * M9, A7, G3 for the engine: at the start of a run in a space with repositories, a per-run
 * credential, the space's checkouts synced through the gateway with it, and the agent's
 * overlay as the working directory; the git environment goes to the run's processes. At the
 * end of the run (any ending) the credential is revoked.
 */
export class GatewayRunWorkspace implements RunWorkspace {
  private readonly open = new Map<string, OpenRun>();

  constructor(private readonly deps: GatewayRunWorkspaceDeps) {}

  async prepare(request: RunWorkspaceRequest): Promise<PreparedWorkspace | null> {
    if (request.space.repos.length === 0) return null;
    const git = await this.deps.environment(request.runId);
    if (git === null) return null;
    const { worktrees } = this.deps;
    await worktrees.sync(request.workspaceSlug, request.space.name, git);
    const overlay = await worktrees.overlay(
      request.workspaceSlug,
      request.space.name,
      request.agent.name,
      request.agentDir,
    );
    const repoDirs = new Set(git.repos.map(repoDirName));
    const refused = request.onSkillRefused ?? (() => {});
    this.open.set(request.runId, { overlay, repoDirs: [...repoDirs], since: new Date(), refused });
    // A7: the repo left active by an earlier run: its refused skills are named from the start.
    for (const skill of await worktrees.refusedSkills(overlay).catch(() => [])) refused(refusedOf(skill));
    this.deps.logger.info({ runId: request.runId, repos: git.repos }, 'run workspace ready');
    return {
      workingDir: overlay,
      env: git.env,
      linkedRoots: [worktrees.reposDir(request.workspaceSlug, request.space.name), request.agentDir],
      gatewayGatesPush: true,
      noteWrite: (written) => this.noteWrite(request.runId, overlay, written, refused),
      repoSkill: async (repo, name) => {
        if (!repoDirs.has(repo)) return null;
        const found = await repoSkill(path.join(overlay, 'repos', repo), name, worktrees.skillVerdicts);
        if (found !== null && 'refused' in found) refused(found);
        return found;
      },
    };
  }

  /**
   * G3: revokes the run's credential. A7: then the active repo follows what the run changed
   * outside `write_file` (bash, a CLI agent's own tools): the newest change in its checkouts.
   */
  async release(runId: string): Promise<void> {
    await this.deps.revoke(runId);
    const run = this.open.get(runId);
    if (run === undefined) return;
    this.open.delete(runId);
    const changed = await latestRepoChange(run.overlay, run.repoDirs, run.since, this.deps.gitHome).catch(
      () => null,
    );
    if (changed !== null) await this.noteWrite(runId, run.overlay, changed, run.refused);
  }

  /** A7 is bookkeeping: it never fails the write (or the run) that triggered it. */
  private async noteWrite(
    runId: string,
    overlay: string,
    written: string,
    refused: (skill: RefusedRepoSkill) => void,
  ): Promise<void> {
    try {
      const noted = await this.deps.worktrees.noteWrite(overlay, written);
      for (const skill of noted.rejected) if (isRefusedByCheck(skill)) refused(refusedOf(skill));
      if (noted.linked.length > 0)
        this.deps.logger.info({ runId, repo: noted.activeRepo, skills: noted.linked }, 'repo skills linked');
    } catch (error) {
      this.deps.logger.warn({ err: error, runId, path: written }, 'active repo not updated');
    }
  }
}

/**
 * A5: a repository's checked skill `name` (case-insensitive), its body without front matter;
 * A6, A7: one the check refused comes back as its reasons, never its text.
 */
async function repoSkill(
  repoDir: string,
  name: string,
  verdicts: RepoSkillVerdicts,
): Promise<RepoSkillBody | RefusedRepoSkill | null> {
  const { skills, rejected } = await findRepoSkills(repoDir, verdicts).catch(() => ({
    skills: [],
    rejected: [] as RejectedSkill[],
  }));
  const skill = skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (skill === undefined) {
    const refused = rejected.find(
      (r) => path.basename(r.path).toLowerCase() === name.toLowerCase() && isRefusedByCheck(r),
    );
    return refused === undefined ? null : refusedOf(refused);
  }
  const text = await readFile(path.join(skill.dir, 'SKILL.md'), 'utf8');
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '').trim();
  return { name: skill.name, body };
}

/** A6: left out by the supply-chain check (not, say, for a name an installed skill holds). */
const isRefusedByCheck = (skill: RejectedSkill): boolean => skill.reason.startsWith('refused by');

const refusedOf = (skill: RejectedSkill): RefusedRepoSkill => ({
  name: path.basename(skill.path),
  refused: skill.reason,
});
