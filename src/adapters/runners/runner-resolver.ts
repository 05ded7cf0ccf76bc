import type { ModelConfig } from '../../config/config';
import type { Runner, RunnerResolver } from '../../core/ports/runner';
import type { ProcessLauncher } from '../sandbox/process-launcher';
import { AnthropicRunner } from './anthropic-runner';
import { CommandRunner } from './command/command-runner';
import { OpenAiRunner } from './openai-runner';
import { UnconfiguredRunner } from './unconfigured-runner';

/**
 * A10: an agent with no adapter runs on the built-in loop (Anthropic Messages API, the default
 * model); `adapter: openai` reaches any OpenAI-compatible server (Ollama, vLLM, LM Studio);
 * `adapter: command` runs the agent's own command line (a CLI agent such as Claude Code).
 * Keys go to the runners only.
 */
export function createRunnerResolver(
  models: ModelConfig,
  launcher?: ProcessLauncher,
  readOnlyPaths: readonly string[] = [],
): RunnerResolver {
  const builtin = new AnthropicRunner({
    apiKey: models.anthropicApiKey,
    defaultModel: models.defaultModel,
    ...(models.anthropicBaseUrl === undefined ? {} : { baseUrl: models.anthropicBaseUrl }),
  });
  const openai = new OpenAiRunner({
    baseUrl: models.openaiBaseUrl,
    apiKey: models.openaiApiKey,
    defaultModel: undefined,
  });
  // A9: a CLI agent; its environment never holds the model keys (they are scrubbed from its errors too).
  // X1: confined by the runtime's launcher (SUMMON_SANDBOX=off: unconfined).
  const command = new CommandRunner({
    ...(launcher === undefined ? {} : { launcher }),
    readOnlyPaths,
    secrets: [models.anthropicApiKey, models.openaiApiKey],
  });
  const noCommand = new UnconfiguredRunner(
    'it has `adapter: command` but no `command`. Set the command to run in the workspace file, for example `command: claude -p --output-format stream-json --verbose --dangerously-skip-permissions`, then run `summon apply`.',
  );
  return (agent): Runner => {
    if (agent.adapterId === 'openai') return openai;
    if (agent.adapterId === 'command') return agent.command?.trim() ? command : noCommand;
    return builtin;
  };
}
