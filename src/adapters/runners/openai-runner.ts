import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome } from '../../core/ports/turn-tools';
import { DEFAULT_MAX_TOOL_ROUNDS } from './anthropic-runner';
import { droppedNotice, fitExchanges } from './bounded-exchanges';
import { finishOrNudge } from './completion-nudge';
import { openAiPromptContent } from './image-content';
import { type AssembledCompletion, readCompletionStream } from './openai-completion-stream';
import { describeOpenAiError } from './openai-errors';
import { answerCalls, startToolLoop } from './tool-round';

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
/** Room left for the model's answer when bounding the history. */
const ANSWER_ROOM = 4096;

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

  constructor(private readonly options: OpenAiRunnerOptions) {
    const { baseUrl, apiKey } = options;
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
    const { tools, signal } = request;
    const maxRounds = this.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
    // T2: a new turn is checkpointed at once; a resumed one goes on from its checkpoint.
    const progress = yield* startToolLoop<ChatCompletionMessageParam[]>(
      request,
      CHECKPOINT_FORMAT,
      tools,
      signal,
      (pending, outcomes) =>
        toolExchange(pending.assistant as ChatCompletionMessageParam, pending.calls, outcomes),
      // P16: people's messages follow the round's tool messages, each a user message.
      (exchange, prompts) => [
        ...exchange,
        ...prompts.map((content): ChatCompletionMessageParam => ({ role: 'user', content })),
      ],
    );
    if (progress === null) return;
    for (let round = progress.firstRound; ; round++) {
      if (signal.aborted) return;
      yield { type: 'thinking' };
      const completion = yield* this.complete(client, model, request, progress.exchanges);
      if (completion === undefined || signal.aborted) return;
      // O3: the call's usage, before anything else happens (a budget may end the turn here).
      if (completion.usage !== undefined)
        yield { type: 'usage', model: completion.model ?? model, usage: completion.usage };
      const goesOn =
        completion.calls.length > 0
          ? yield* answerCalls(
              progress,
              round,
              maxRounds,
              { assistant: completion.message, calls: completion.calls },
              tools,
              signal,
              (outcomes) => toolExchange(completion.message, completion.calls, outcomes),
            )
          : yield* finishOrNudge(tools, progress, round + 1, completion.text, (nudge) =>
              nudgeExchange(completion.text, nudge),
            );
      if (!goesOn) return;
    }
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
   * One streamed completion of the round: the history bounded to the agent's window, the
   * round's tools offered. Undefined when the call failed (the error yielded) or was stopped.
   */
  private async *complete(
    client: OpenAI,
    model: string,
    request: RunnerRequest,
    exchanges: ChatCompletionMessageParam[][],
  ): AsyncGenerator<RunnerEvent, AssembledCompletion | undefined> {
    const { signal } = request;
    const head: ChatCompletionMessageParam[] = [
      { role: 'system', content: request.system },
      { role: 'user', content: request.prompt },
    ];
    const budget =
      (request.agent.contextSize ?? this.options.defaultContextTokens ?? DEFAULT_OPENAI_CONTEXT) -
      ANSWER_ROOM;
    // A4: contextSize bounds the loop's history; the oldest tool exchanges go first, whole.
    const { kept, dropped } = fitExchanges(head, exchanges, budget);
    // P13: the attached images go with the prompt (they are not counted in the estimate above).
    const prompt: ChatCompletionMessageParam[] = [
      head[0] as ChatCompletionMessageParam,
      {
        role: 'user',
        content: openAiPromptContent(
          dropped > 0 ? request.prompt + droppedNotice(dropped) : request.prompt,
          request.images,
        ),
      },
    ];
    const offered = offeredTools(request);
    try {
      const stream = await client.chat.completions.create(
        {
          model,
          messages: [...prompt, ...kept.flat()],
          stream: true,
          // O3: the last chunk carries the call's usage.
          stream_options: { include_usage: true },
          // A9: only the tools of this space mode are offered.
          ...(offered.length > 0 ? { tools: offered } : {}),
        },
        { signal },
      );
      return yield* readCompletionStream(stream);
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
    }
  }
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
