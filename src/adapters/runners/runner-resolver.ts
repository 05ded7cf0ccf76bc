import type { ModelConfig } from '../../config/config';
import type { Runner, RunnerEvent, RunnerRequest, RunnerResolver } from '../../core/ports/runner';
import type { ProcessLauncher } from '../sandbox/process-launcher';
import { AnthropicRunner } from './anthropic-runner';
import { shellQuote } from './command/command-line';
import { CommandRunner } from './command/command-runner';
import { CLAUDE_CLI_COMMAND, type DiscoveredModel } from './model-discovery';
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
  /** A10: what model discovery found for agents without an adapter; the built-in loop when absent. */
  discovered?: DiscoveredModel,
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
  const unadapted = discoveredRunner(discovered, models, command) ?? builtin;
  return (agent): Runner => {
    if (agent.adapterId === 'openai') return openai;
    if (agent.adapterId === 'command') return agent.command?.trim() ? command : noCommand;
    return unadapted;
  };
}

/** A10: the runner of agents without an adapter when discovery found something else than Anthropic. */
function discoveredRunner(
  found: DiscoveredModel | undefined,
  models: ModelConfig,
  command: CommandRunner,
): Runner | undefined {
  if (found?.kind === 'openai')
    return new OpenAiRunner({
      baseUrl: found.baseUrl,
      apiKey: models.openaiApiKey,
      defaultModel: found.model,
    });
  // Ollama serves an OpenAI-compatible API under /v1 and needs no key.
  if (found?.kind === 'ollama')
    return new OpenAiRunner({ baseUrl: `${found.url}/v1`, apiKey: undefined, defaultModel: found.model });
  if (found?.kind === 'claude-cli')
    return new ClaudeCliRunner(
      command,
      `${shellQuote(found.program)}${CLAUDE_CLI_COMMAND.slice('claude'.length)}`,
    );
  return undefined;
}

/** A9, A10: an agent without an adapter run as a Claude Code CLI agent, through the command runner. */
class ClaudeCliRunner implements Runner {
  constructor(
    private readonly command: CommandRunner,
    private readonly commandLine: string,
  ) {}

  /** E2: Claude Code reaches the turn's MCP tools through Summon's endpoint. */
  mcpThroughEndpoint(): boolean {
    return true;
  }

  run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    return this.command.run({
      ...request,
      agent: { ...request.agent, adapterId: 'command', command: this.commandLine },
    });
  }
}
