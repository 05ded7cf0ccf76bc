import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoDirName } from '../../core/git/active-repo';
import type { Logger } from '../../core/ports/logger';
import type {
  PreparedWorkspace,
  RepoSkillBody,
  RunWorkspace,
  RunWorkspaceRequest,
} from '../../core/ports/run-workspace';
import { findRepoSkills } from './repo-skills';
import type { RunGitEnvironment } from './run-git-environment';
import type { SpaceWorktrees } from './space-worktrees';

export interface GatewayRunWorkspaceDeps {
  worktrees: SpaceWorktrees;
  /** G3: issues the run's credential and its git environment; null when the space has no repos. */
  environment(runId: string): Promise<RunGitEnvironment | null>;
  /** G3: ends the run's credentials. */
  revoke(runId: string): Promise<unknown>;
  logger: Logger;
}

/**
 * M9, A7, G3 for the engine: at the start of a run in a space with repositories, a per-run
 * credential, the space's checkouts synced through the gateway with it, and the agent's
 * overlay as the working directory; the git environment goes to the run's processes. At the
 * end of the run (any ending) the credential is revoked.
 */
export class GatewayRunWorkspace implements RunWorkspace {
  constructor(private readonly deps: GatewayRunWorkspaceDeps) {}

  async prepare(request: RunWorkspaceRequest): Promise<PreparedWorkspace | null> {
    if (request.space.repos.length === 0) return null;
    const git = await this.deps.environment(request.runId);
    if (git === null) return null;
    const { worktrees } = this.deps;
    const log = this.deps.logger.child({ component: 'run-workspace', runId: request.runId });
    await worktrees.sync(request.workspaceSlug, request.space.name, git);
    const overlay = await worktrees.overlay(
      request.workspaceSlug,
      request.space.name,
      request.agent.name,
      request.agentDir,
    );
    const repoDirs = new Set(git.repos.map(repoDirName));
    log.info({ repos: git.repos }, 'run workspace ready');
    return {
      workingDir: overlay,
      env: git.env,
      linkedRoots: [worktrees.reposDir(request.workspaceSlug, request.space.name), request.agentDir],
      gatewayGatesPush: true,
      noteWrite: async (written) => {
        try {
          const noted = await worktrees.noteWrite(overlay, written);
          if (noted.linked.length > 0)
            log.info({ repo: noted.activeRepo, skills: noted.linked }, 'repo skills linked');
        } catch (error) {
          // A7 is bookkeeping: it never fails the write that triggered it.
          log.warn({ err: error, path: written }, 'active repo not updated');
        }
      },
      repoSkill: async (repo, name) =>
        repoDirs.has(repo) ? repoSkill(path.join(overlay, 'repos', repo), name) : null,
    };
  }

  async release(runId: string): Promise<void> {
    await this.deps.revoke(runId);
  }
}

/** A5: a repository's checked skill `name` (case-insensitive), its body without front matter. */
async function repoSkill(repoDir: string, name: string): Promise<RepoSkillBody | null> {
  const { skills } = await findRepoSkills(repoDir).catch(() => ({ skills: [] }));
  const skill = skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (skill === undefined) return null;
  const text = await readFile(path.join(skill.dir, 'SKILL.md'), 'utf8');
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '').trim();
  return { name: skill.name, body };
}
