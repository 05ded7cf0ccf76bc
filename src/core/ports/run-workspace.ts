import type { AgentRecord, SpaceRecord } from '../model/records';

/** What the engine tells the workspace port about the run it starts. */
export interface RunWorkspaceRequest {
  runId: string;
  workspaceSlug: string;
  agent: AgentRecord;
  space: SpaceRecord;
  /** The agent's own folder (the working directory when the space has no repositories). */
  agentDir: string;
  /**
   * A6, A7: a skill of the run's active repository the supply-chain check refused, left out
   * of what the agent sees (at the start, and whenever a write makes another repo active).
   */
  onSkillRefused?: (skill: RefusedRepoSkill) => void;
}

/** A skill found in a repository of the space (A5 `/skill:<repo>:<name>`). */
export interface RepoSkillBody {
  name: string;
  body: string;
}

/** A6, A7: a repository's skill the supply-chain check refused: never loaded, only named. */
export interface RefusedRepoSkill {
  name: string;
  refused: string;
}

/** A run's prepared workspace: where it works and what its processes get. */
export interface PreparedWorkspace {
  /** M9: the agent's overlay (its files plus the space's repositories under `repos/`). */
  workingDir: string;
  /**
   * G3: merged into the environment of the run's processes (`bash`, a CLI agent): only git
   * configuration pointing at the gateway with the run's own credential, never a GitHub one.
   */
  env: Readonly<Record<string, string>>;
  /** M9: the directories `workingDir` links into (the space's checkouts, the agent's folder). */
  linkedRoots: readonly string[];
  /** G5: the run's `git push` goes through the gateway, which gates it at the moment of push. */
  gatewayGatesPush: boolean;
  /** A7: a file was written (path relative to `workingDir`): the active repo follows it. Never throws. */
  noteWrite(path: string): Promise<void>;
  /** A5: the checked skill `name` of the space's repository `repo` (its folder name), if any. */
  repoSkill(repo: string, name: string): Promise<RepoSkillBody | RefusedRepoSkill | null>;
}

/**
 * M9, G3: the per-run workspace of a space with repositories (worktrees synced through the git
 * gateway, a per-run credential). `prepare` answers null when the space has none; `release`
 * ends the run's credential and is called once the run ends, however it ends.
 */
export interface RunWorkspace {
  prepare(request: RunWorkspaceRequest): Promise<PreparedWorkspace | null>;
  release(runId: string): Promise<void>;
}
