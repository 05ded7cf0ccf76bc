import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome } from '../../core/ports/turn-tools';
import { estimateTokens } from '../../core/prompt/token-estimate';
import { DEFAULT_MAX_TOOL_ROUNDS } from './anthropic-runner';
import { summaryNote } from './compaction';
import { openAiPromptContent } from './image-content';
import { type LoopHistory, type ModelReply, runModelLoop, type WireFormat } from './model-loop';
import { readCompletionStream } from './openai-completion-stream';
import { describeOpenAiError } from './openai-errors';

export interface OpenAiRunnerOptions {
  /** An OpenAI-compatible API root, e.g. `http://localhost:11434/v1` (Ollama). Unset = OpenAI's own API. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** The model of agents that name none (A10: the default model). */
  defaultModel: string | undefined;
  /** Retries of connection errors, 408, 429 and 5xx (the SDK's default is 2). */
  maxRetries?: number;
  /** A4: the window of agents without `contextSize` (local models are often small). */
  defaultContextTokens?: number;
  /** How many rounds of tool calls one turn may make before it fails (a runaway guard). */
  maxToolRounds?: number;
}

/** A common window of local models; an agent's `contextSize` overrides it. */
export const DEFAULT_OPENAI_CONTEXT = 32_768;

/** Local servers (Ollama, LM Studio, vLLM) usually take no key, but the SDK insists on one. */
const PLACEHOLDER_KEY = 'no-key';

/** T2: the transcript of this runner's checkpoints is chat-completions messages. */
const CHECKPOINT_FORMAT = 'openai';

/**
 * The built-in loop over any OpenAI-compatible chat-completions endpoint (A9, A10): one
 * streamed completions; `tool_calls` run through the turn's tools and go back as `tool`
 * messages until the model answers without calls.
 */
export class OpenAiRunner implements Runner {
  readonly takesImages = true;
  /** P16: people's messages join the turn at its tool boundaries. */
  readonly takesSteering = true;
  /** T2: checkpointed at its start and at each tool boundary (`startToolLoop`). */
  readonly checkpoints = true;
  private readonly client: OpenAI | undefined;
  /** A14: OpenAI's own API takes `prompt_cache_key`; other servers may refuse a field they do not know. */
  private readonly takesCacheKey: boolean;

  constructor(private readonly options: OpenAiRunnerOptions) {
    const { baseUrl, apiKey } = options;
    this.takesCacheKey = baseUrl === undefined || hostOf(baseUrl) === 'api.openai.com';
    if (baseUrl === undefined && apiKey === undefined) return;
    this.client = new OpenAI({
      apiKey: apiKey ?? PLACEHOLDER_KEY,
      ...(baseUrl === undefined ? {} : { baseURL: baseUrl }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    });
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const client = this.client;
    const model = request.agent.modelId ?? this.options.defaultModel;
    const unready = this.unready(request.agent.name, client, model);
    if (unready !== undefined || client === undefined || model === undefined) {
      if (unready !== undefined) yield unready;
      return;
    }
    const wire: WireFormat<ChatCompletionMessageParam[]> = {
      format: CHECKPOINT_FORMAT,
      prepare: (history, summarizing) => ({
        // A4: the messages and tools as sent (images are not counted: a turn's are few and bounded).
        tokens:
          estimateTokens(JSON.stringify(openAiMessages(request, history))) +
          estimateTokens(JSON.stringify(offeredTools(request))),
        send: () => this.complete(client, model, request, history, summarizing),
      }),
      toolExchange: (assistant, calls, outcomes) =>
        toolExchange(assistant as ChatCompletionMessageParam, calls, outcomes),
      nudgeExchange: (reply, nudge) => nudgeExchange(reply.text, nudge),
      // P16: people's messages follow the round's tool messages, each a user message.
      withSteering: (exchange, prompts) => [
        ...exchange,
        ...prompts.map((content): ChatCompletionMessageParam => ({ role: 'user', content })),
      ],
    };
    yield* runModelLoop(request, wire, {
      maxRounds: this.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
      contextTokens: request.agent.contextSize ?? this.options.defaultContextTokens ?? DEFAULT_OPENAI_CONTEXT,
    });
  }

  /** A10: why this runner cannot answer the agent yet (no server, no model), as an error event. */
  private unready(
    name: string,
    client: OpenAI | undefined,
    model: string | undefined,
  ): RunnerEvent | undefined {
    if (client === undefined)
      // A10: no model server yet: say how to configure one, crash nothing.
      return {
        type: 'error',
        message: `${name} cannot answer: no model server is configured. Set OPENAI_BASE_URL to an OpenAI-compatible server (for example http://localhost:11434/v1 for Ollama) and OPENAI_API_KEY if it needs one.`,
      };
    if (model === undefined || model.trim() === '')
      return {
        type: 'error',
        message: `${name} cannot answer: no model is chosen. Set the agent's \`model\` in the workspace file (for example \`model: llama3.1\`).`,
      };
    return undefined;
  }

  /**
   * One streamed completion for `history`, the round's tools offered (A15: `summarizing`, offered
   * but not to be called, so the prefix stays the same). Undefined when the call failed (the
   * error yielded) or was stopped.
   */
  private async *complete(
    client: OpenAI,
    model: string,
    request: RunnerRequest,
    history: LoopHistory<ChatCompletionMessageParam[]>,
    summarizing: boolean,
  ): AsyncGenerator<RunnerEvent, ModelReply | undefined> {
    const { signal } = request;
    yield { type: 'thinking' };
    const offered = offeredTools(request);
    // The SDK leaves a listener on the signal of every request it is given: each call gets its
    // own, which follows the turn's and is let go when the call ends (a long turn has many calls).
    const call = new AbortController();
    const follow = () => call.abort();
    signal.addEventListener('abort', follow, { once: true });
    try {
      const stream = await client.chat.completions.create(
        {
          model,
          messages: openAiMessages(request, history),
          stream: true,
          // O3: the last chunk carries the call's usage.
          stream_options: { include_usage: true },
          // A9: only the tools of this space mode are offered.
          ...(offered.length > 0 ? { tools: offered } : {}),
          ...(summarizing && offered.length > 0 ? { tool_choice: 'none' as const } : {}),
          // A14: the turn's calls share one cache key, so they reach the machine holding their prefix.
          ...(this.takesCacheKey ? { prompt_cache_key: `summon-run-${request.runId}` } : {}),
        },
        { signal: call.signal },
      );
      const completion = yield* readCompletionStream(stream);
      return {
        assistant: completion.message,
        text: completion.text,
        calls: completion.calls,
        wantsTools: true,
        model: completion.model ?? model,
        usage: completion.usage,
      };
    } catch (error) {
      // A stopped turn ends quietly: the engine already knows why it stopped.
      if (signal.aborted) return undefined;
      yield {
        type: 'error',
        message: describeOpenAiError(error, {
          agentName: request.agent.name,
          serverUrl: client.baseURL,
          model,
          apiKey: this.options.apiKey,
          retries: this.options.maxRetries ?? 2,
        }),
      };
      return undefined;
    } finally {
      signal.removeEventListener('abort', follow);
    }
  }
}

/**
 * A14: the messages of a request, a byte-stable prefix (servers with prefix caching reuse it):
 * the system prompt, the turn's prompt (P13: with its images), A15: the summary of compacted
 * rounds, the rounds, and the summary request's instruction last.
 */
function openAiMessages(
  request: RunnerRequest,
  history: LoopHistory<ChatCompletionMessageParam[]>,
): ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: request.system },
    { role: 'user', content: openAiPromptContent(request.prompt, request.images) },
    ...(history.summary === undefined
      ? []
      : [{ role: 'user' as const, content: summaryNote(history.summary) }]),
    ...history.exchanges.flat(),
    ...(history.ask === undefined ? [] : [{ role: 'user' as const, content: history.ask }]),
  ];
}

/** A9: the model's words (or that it said nothing) and the completion contract's nudge. */
const nudgeExchange = (said: string, nudge: string): ChatCompletionMessageParam[] => [
  { role: 'assistant', content: said === '' ? '(no answer)' : said },
  { role: 'user', content: nudge },
];

/** A9: the turn's tools as chat-completions functions. */
const offeredTools = (request: RunnerRequest): ChatCompletionTool[] =>
  request.tools.specs.map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  }));

/** A round as the API takes it back: the assistant message with its calls, then one `tool` message each. */
const toolExchange = (
  assistant: ChatCompletionMessageParam,
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
): ChatCompletionMessageParam[] => [
  assistant,
  ...calls.map(
    (call, index): ChatCompletionMessageParam => ({
      role: 'tool',
      tool_call_id: call.callId,
      content: outcomes[index]?.output || '(no output)',
    }),
  ),
];

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
