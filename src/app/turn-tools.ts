import type { ProcessLauncher } from '../adapters/sandbox/process-launcher';
import type { PullRequestOpener } from '../adapters/tools/open-pull-request-tool';
import { builtinTools } from '../adapters/tools/tool-registry';
import type { TurnToolKit } from '../core/engine/engine-deps';
import { createToolKit } from '../core/engine/tool-kit/turn-tool-kit';
import { agentEnvironment } from '../core/tools/agent-environment';

/**
 * A9: the built-in harness's tools for the engine. The bash tool's environment is the same
 * allow-listed one CLI agents get: none of Summon's secrets (model keys, platform tokens,
 * database passwords).
 */
export function createTurnTools(
  env: NodeJS.ProcessEnv = process.env,
  options: {
    bashTimeoutMs?: number;
    pullRequests?: PullRequestOpener | null;
    /** X1–X4: the runtime's launcher (default: a new bubblewrap launcher, fail closed). */
    launcher?: ProcessLauncher;
  } = {},
): TurnToolKit {
  const definitions = builtinTools({
    bash: {
      env: agentEnvironment(env),
      ...(options.bashTimeoutMs === undefined ? {} : { timeoutMs: options.bashTimeoutMs }),
      ...(options.launcher === undefined ? {} : { launcher: options.launcher }),
    },
    pullRequests: options.pullRequests ?? null,
  });
  return createToolKit(definitions);
}
