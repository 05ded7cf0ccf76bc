import type { ModelConfig } from '../../config/config';
import type { Runner, RunnerResolver } from '../../core/ports/runner';
import { AnthropicRunner } from './anthropic-runner';
import { OpenAiRunner } from './openai-runner';
import { UnconfiguredRunner } from './unconfigured-runner';

/**
 * A10: an agent with no adapter runs on the built-in loop (Anthropic Messages API, the default
 * model); `adapter: openai` reaches any OpenAI-compatible server (Ollama, vLLM, LM Studio).
 * Keys go to the runners only.
 */
export function createRunnerResolver(models: ModelConfig): RunnerResolver {
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
  const command = new UnconfiguredRunner(
    'agents with `adapter: command` cannot run yet: the command runner is not part of this build.',
  );
  return (agent): Runner => {
    if (agent.adapterId === 'openai') return openai;
    if (agent.adapterId === 'command') return command;
    return builtin;
  };
}
