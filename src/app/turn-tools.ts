import type { PullRequestOpener } from '../adapters/tools/open-pull-request-tool';
import { builtinTools } from '../adapters/tools/tool-registry';
import type { Config } from '../config/config';
import { createToolKit, type TurnToolsFactory } from '../core/engine/turn-tool-kit';
import { agentEnvironment, urlSecrets } from '../core/tools/agent-environment';

/** Every secret value the service holds: none may reach an agent's processes. */
export function summonSecretValues(config: Pick<Config, 'models' | 'databaseUrl' | 'redisUrl'>): string[] {
  return [
    config.models.anthropicApiKey,
    config.models.openaiApiKey,
    ...urlSecrets(config.databaseUrl),
    ...urlSecrets(config.redisUrl),
  ].filter((value): value is string => value !== undefined && value !== '');
}

/**
 * A9: the built-in harness's tools for the engine. The bash tool's environment is the same
 * allow-listed one CLI agents get: none of Summon's secrets (model keys, platform tokens,
 * database passwords).
 */
export function createTurnTools(
  config: Pick<Config, 'models' | 'databaseUrl' | 'redisUrl'>,
  env: NodeJS.ProcessEnv = process.env,
  options: { approvalPollMs?: number; bashTimeoutMs?: number; pullRequests?: PullRequestOpener | null } = {},
): TurnToolsFactory {
  const definitions = builtinTools({
    bash: {
      env: agentEnvironment(env, {}, summonSecretValues(config)),
      ...(options.bashTimeoutMs === undefined ? {} : { timeoutMs: options.bashTimeoutMs }),
    },
    pullRequests: options.pullRequests ?? null,
  });
  return createToolKit(
    definitions,
    options.approvalPollMs === undefined ? {} : { approvalPollMs: options.approvalPollMs },
  );
}
