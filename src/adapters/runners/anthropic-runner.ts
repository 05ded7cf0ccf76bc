import Anthropic, { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome } from '../../core/ports/turn-tools';
import { CHARS_PER_TOKEN, DEFAULT_CONTEXT_TOKENS } from '../../core/prompt/token-estimate';
import { leanFetch } from '../http/lean-fetch';
import { anthropicTokenPlan } from './anthropic-effort';
import { describeAnthropicError } from './anthropic-errors';
import { anthropicMessages, cachedSystem } from './anthropic-history';
import { type AssembledMessage, MessageAssembly } from './anthropic-message-stream';
import { anthropicTools } from './anthropic-tools';
import { type LoopHistory, type ModelReply, runModelLoop, type WireFormat } from './model-loop';
import { requestJson } from './request-body';

export interface AnthropicRunnerOptions {
  /** `ANTHROPIC_API_KEY`; without it every run fails with a sentence saying how to configure one. */
  apiKey: string | undefined;
  /** `ANTHROPIC_BASE_URL`; the public API when absent (always passed, so the SDK never reads it). */
  baseUrl?: string;
  /** `SUMMON_DEFAULT_MODEL`: the model of an agent without `modelId` (A10). */
  defaultModel: string;
  /**
   * A hard ceiling on `max_tokens`. When absent a call asks for 8192 tokens, plus the
   * thinking budget when the agent's effort turns thinking on (see anthropic-effort.ts).
   */
  maxTokens?: number;
  /** Retries of the SDK for connection errors, 429 and 5xx; the SDK's default (2) when absent. */
  maxRetries?: number;
  /** How many rounds of tool calls one turn may make before it fails (a runaway guard). */
  maxToolRounds?: number;
}

export const DEFAULT_MAX_TOOL_ROUNDS = 50;

const PUBLIC_API = 'https://api.anthropic.com';

/** The content type the SDK gives a body it writes itself (with it, it sends a string body as it is). */
const JSON_BODY = { 'content-type': 'application/json' } as const;

/** T2: the transcript of this runner's checkpoints is Messages API messages. */
const CHECKPOINT_FORMAT = 'anthropic';

export const NO_ANTHROPIC_KEY_REASON =
  'no model is configured: set ANTHROPIC_API_KEY to use Anthropic models, or give the agent ' +
  '`adapter: openai` and set OPENAI_BASE_URL to use a local model server.';

/**
 * The built-in loop over the Anthropic Messages API (A9, A10): streamed calls, text deltas
 * forwarded as they arrive; a `tool_use` stop runs the calls through the turn's tools and
 * sends the results back, until the model stops. The turn ends with the last message's text.
 */
export class AnthropicRunner implements Runner {
  readonly takesImages = true;
  /** P16: people's messages join the turn at its tool boundaries. */
  readonly takesSteering = true;
  /** T2: checkpointed at its start and at each tool boundary (`startToolLoop`). */
  readonly checkpoints = true;
  private readonly client: Anthropic | undefined;

  constructor(private readonly options: AnthropicRunnerOptions) {
    const apiKey = options.apiKey;
    this.client =
      apiKey === undefined || apiKey === ''
        ? undefined
        : new Anthropic({
            apiKey,
            // An explicit base URL keeps the SDK from reading ANTHROPIC_BASE_URL itself.
            baseURL: options.baseUrl ?? PUBLIC_API,
            // The Messages API documents `x-api-key` for api keys. SDK 1.14 sends `apiKey` as
            // `Authorization: Bearer …` instead: send the documented header and drop the bearer
            // one (the stand-in refuses a request without x-api-key).
            defaultHeaders: { 'x-api-key': apiKey, Authorization: null },
            // T3: the lean fetch (`lean-fetch.ts`): a call's objects die with it.
            fetch: leanFetch(),
            ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          });
  }

  /**
   * The body of a Messages call for `history` (the first call's when absent; exposed for tests
   * and logs; no secrets). A14: tools, system and the rounds before the newest carry the cache
   * breakpoints and are the same bytes in every call of the turn. A15: `summarizing` keeps the
   * tools (the prefix stays cached; the API wants them beside earlier tool calls) but lets none
   * be called.
   */
  params(
    request: RunnerRequest,
    history: LoopHistory<MessageParam[]> = { summary: undefined, exchanges: [] },
    summarizing = false,
  ): MessageCreateParamsStreaming {
    // A4: the agent's effort decides thinking (the map is in anthropic-effort.ts).
    const plan = anthropicTokenPlan(request.agent.effort, this.options.maxTokens);
    const budget = plan.thinkingBudget;
    const specs = request.tools.specs;
    return {
      // A10: an agent without a model runs on the default model.
      model: request.agent.modelId ?? this.options.defaultModel,
      max_tokens: plan.maxTokens,
      system: cachedSystem(request.system),
      messages: anthropicMessages(request, history),
      stream: true,
      ...(budget !== undefined ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
      // A9: the tool surface was built from the space mode; an absent tool is never offered.
      ...(summarizing && specs.length > 0 ? { tool_choice: { type: 'none' } } : {}),
      ...(specs.length > 0 ? { tools: anthropicTools(specs) } : {}),
    };
  }

  /** The loop's events, handed on as they come (no generator of its own between them and the turn). */
  run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const client = this.client;
    // A10: a missing key is a sentence in the thread, never a crash.
    if (client === undefined) return noKey(request);
    const wire: WireFormat<MessageParam[]> = {
      format: CHECKPOINT_FORMAT,
      prepare: (history, summarizing) => {
        const params = this.params(request, history, summarizing);
        // A4, A14: the body written once for the call, its tools' JSON kept between calls, and
        // sized from its length (images are not counted: a turn's images are few and bounded).
        const body = requestJson(params);
        return {
          tokens: Math.ceil(body.length / CHARS_PER_TOKEN),
          send: () => this.nextMessage(client, request.signal, params, body),
        };
      },
      toolExchange: (assistant, calls, outcomes) =>
        toolExchange(assistant as ContentBlockParam[], calls, outcomes),
      nudgeExchange: (reply, nudge) => nudgeExchange(reply.assistant as ContentBlockParam[], nudge),
      withSteering,
    };
    return runModelLoop(request, wire, {
      maxRounds: this.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
      contextTokens: request.agent.contextSize ?? DEFAULT_CONTEXT_TOKENS,
    });
  }

  /**
   * One model call, streamed. An `overloaded_error` event inside a stream that has shown nothing
   * yet is retried here, with the SDK's backoff (the SDK retries a 429/529 answer itself).
   * Undefined when the call failed (the error yielded) or was stopped.
   */
  private async *nextMessage(
    client: Anthropic,
    signal: AbortSignal,
    params: MessageCreateParamsStreaming,
    /** `params` as written once (`requestJson`): the SDK sends a string body as it is. */
    body: string,
  ): AsyncGenerator<RunnerEvent, ModelReply | undefined> {
    const retries = this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      let streamed = false;
      try {
        const stream = await client.messages.create(params, { signal, body, headers: JSON_BODY });
        // Read here, not through a generator of its own: each layer costs every event promises.
        const assembly = new MessageAssembly();
        for await (const event of stream) {
          const shown = assembly.take(event);
          if (shown === undefined) continue;
          // Once anything but thinking was shown, an overloaded stream is not asked again.
          if (shown.type !== 'thinking') streamed = true;
          yield shown;
        }
        if (signal.aborted) return undefined;
        const message = assembly.message();
        if (message.completed) return replyOf(message, params.model);
        // O3: an incomplete stream is an error, its usage still reported.
        yield { type: 'usage', model: message.model ?? params.model, usage: message.usage };
        yield { type: 'error', message: 'The Anthropic API stream ended before the message was complete.' };
        return undefined;
      } catch (error) {
        if (signal.aborted || error instanceof APIUserAbortError) return undefined;
        if (!streamed && attempt < retries && isOverloadedEvent(error)) {
          await backoff(attempt, signal);
          continue;
        }
        yield { type: 'error', message: describeAnthropicError(error, this.options.apiKey ?? '', retries) };
        return undefined;
      }
    }
  }
}

/** The loop's view of a complete message. */
const replyOf = (message: AssembledMessage, model: string): ModelReply => ({
  assistant: message.content,
  text: message.text,
  calls: message.calls,
  wantsTools: message.stopReason === 'tool_use',
  model: message.model ?? model,
  usage: message.usage,
});

/** A round as the API takes it back: the assistant message with its calls, then their results. */
const toolExchange = (
  content: ContentBlockParam[],
  calls: readonly ToolCall[],
  outcomes: readonly ToolOutcome[],
): MessageParam[] => [
  { role: 'assistant', content },
  { role: 'user', content: toolResults(calls, outcomes) },
];

/** A9: what the model said (or that it said nothing) and the completion contract's nudge. */
const nudgeExchange = (said: ContentBlockParam[], nudge: string): MessageParam[] => [
  { role: 'assistant', content: said.length > 0 ? said : [{ type: 'text', text: '(no answer)' }] },
  { role: 'user', content: nudge },
];

/** The results answering a round's calls, in order (a failure flagged as an error). */
const toolResults = (calls: readonly ToolCall[], outcomes: readonly ToolOutcome[]): ToolResultBlockParam[] =>
  calls.map((call, index) => ({
    type: 'tool_result',
    tool_use_id: call.callId,
    content: outcomes[index]?.output || '(no output)',
    ...(outcomes[index]?.ok === false ? { is_error: true } : {}),
  }));

/**
 * P16: people's messages join a round's exchange as text blocks after its tool results, in the
 * same user message (the Messages API wants user and assistant turns to alternate).
 */
function withSteering([assistant, results]: MessageParam[], prompts: string[]): MessageParam[] {
  const content = Array.isArray(results?.content) ? results.content : [];
  return [
    ...(assistant === undefined ? [] : [assistant]),
    { role: 'user', content: [...content, ...prompts.map((text) => ({ type: 'text' as const, text }))] },
  ];
}

/** A10: the one event of a runner without a key. */
async function* noKey(request: RunnerRequest): AsyncGenerator<RunnerEvent> {
  yield { type: 'error', message: `${request.agent.name} cannot answer: ${NO_ANTHROPIC_KEY_REASON}` };
}

const isOverloadedEvent = (error: unknown): boolean =>
  error instanceof APIError && error.status === undefined && error.type === 'overloaded_error';

/** The SDK's schedule: 0.5 s doubling, at most 8 s, with up to 25 % jitter; ends early on abort. */
function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = Math.min(500 * 2 ** attempt, 8000) * (1 - Math.random() * 0.25);
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
