import { repoMetadata } from '../adapters/github/repo-metadata';
import { createRunnerResolver } from '../adapters/runners/runner-resolver';
import { FileSkillLibrary } from '../adapters/skill-sources/file-skill-library';
import { GitSkillFetcher } from '../adapters/skill-sources/git-skill-fetcher';
import { workspacesDir } from '../config/config';
import { systemClock } from '../core/ports/clock';
import type { RunnerResolver } from '../core/ports/runner';
import { ModelSkillReviewer } from '../core/skills/model-skill-reviewer';
import { SkillInstaller } from '../core/skills/skill-installer';
import { verifyInstalledSkills } from '../core/skills/verify-installed';
import { gitHubCredentials } from './git-gateway-runtime';
import type { Runtime } from './runtime';

/**
 * A6: `summon skills`: sources fetched with the GitHub credential Summon already has (the
 * App, GITHUB_TOKEN) or anonymously; the review agent, when configured, runs on its own runner.
 */
export function createSkillInstaller(
  runtime: Runtime,
  options: { runners?: RunnerResolver } = {},
): SkillInstaller {
  const { config } = runtime;
  const credentials = gitHubCredentials(config.github);
  const library = new FileSkillLibrary(workspacesDir(config));
  const fetcher = new GitSkillFetcher({
    gitUrl: config.github.gitUrl,
    auth: credentials,
    metadata: repoMetadata({ apiUrl: config.github.apiUrl, tokens: credentials }),
    logger: runtime.logger,
  });
  const runners =
    options.runners ?? createRunnerResolver(config.models, runtime.launcher, config.sandbox.readOnlyPaths);
  return new SkillInstaller({
    store: runtime.store,
    fetcher,
    library,
    clock: systemClock,
    logger: runtime.logger,
    reviewerFor: async (workspace, name) => {
      const agent = await runtime.store.inWorkspace(workspace.id, (tx) =>
        tx.agents.findByName(workspace.id, name),
      );
      if (agent === null) return null;
      return new ModelSkillReviewer(
        agent,
        runners(agent),
        runtime.directory.agentDir(workspace.slug, agent.name),
      );
    },
  });
}

/** A6 at start: installed skills whose files no longer match the lock are refused and reported. */
export function verifySkillsAtStart(runtime: Runtime) {
  return verifyInstalledSkills({
    store: runtime.store,
    library: new FileSkillLibrary(workspacesDir(runtime.config)),
    logger: runtime.logger,
  });
}
