import Anthropic, { APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import type { ToolCall, ToolOutcome } from '../../core/ports/turn-tools';
import { DEFAULT_CONTEXT_TOKENS, estimateTokens } from '../../core/prompt/token-estimate';
import { anthropicTokenPlan } from './anthropic-effort';
import { describeAnthropicError } from './anthropic-errors';
import { type AssembledMessage, readMessageStream } from './anthropic-message-stream';
import { droppedNotice, fitExchanges } from './bounded-exchanges';
import { finishOrNudge } from './completion-nudge';
import { anthropicPromptContent } from './image-content';
import { answerCalls, startToolLoop } from './tool-round';

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
            ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
          });
  }

  /** The body of the first Messages call for a request (exposed for tests and logs; no secrets). */
  params(request: RunnerRequest, messages?: MessageParam[]): MessageCreateParamsStreaming {
    // A4: the agent's effort decides thinking (the map is in anthropic-effort.ts).
    const plan = anthropicTokenPlan(request.agent.effort, this.options.maxTokens);
    const budget = plan.thinkingBudget;
    const tools: Tool[] = request.tools.specs.map((spec) => ({
      name: spec.name,
      description: spec.description,
      input_schema: spec.inputSchema as Tool.InputSchema,
    }));
    return {
      // A10: an agent without a model runs on the default model.
      model: request.agent.modelId ?? this.options.defaultModel,
      max_tokens: plan.maxTokens,
      system: request.system,
      messages: messages ?? [
        { role: 'user', content: anthropicPromptContent(request.prompt, request.images) },
      ],
      stream: true,
      ...(budget !== undefined ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
      // A9: the tool surface was built from the space mode; an absent tool is never offered.
      ...(tools.length > 0 ? { tools } : {}),
    };
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const client = this.client;
    if (client === undefined) {
      // A10: a missing key is a sentence in the thread, never a crash.
      yield { type: 'error', message: `${request.agent.name} cannot answer: ${NO_ANTHROPIC_KEY_REASON}` };
      return;
    }
    const { tools, signal } = request;
    const maxRounds = this.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
    // T2: a new turn is checkpointed at once; a resumed one goes on from its checkpoint.
    const progress = yield* startToolLoop<MessageParam[]>(
      request,
      CHECKPOINT_FORMAT,
      tools,
      signal,
      (pending, outcomes) => toolExchange(pending.assistant as ContentBlockParam[], pending.calls, outcomes),
      withSteering,
    );
    if (progress === null) return;
    for (let round = progress.firstRound; ; round++) {
      if (signal.aborted) return;
      const message = yield* this.nextMessage(client, request, progress.exchanges);
      if (message === undefined || signal.aborted) return;
      // O3: the call's usage, before anything else happens (a budget may end the turn here).
      yield { type: 'usage', model: message.model ?? this.params(request).model, usage: message.usage };
      if (!message.completed) {
        yield { type: 'error', message: 'The Anthropic API stream ended before the message was complete.' };
        return;
      }
      const goesOn =
        message.stopReason === 'tool_use' && message.calls.length > 0
          ? yield* answerCalls(
              progress,
              round,
              maxRounds,
              { assistant: message.content, calls: message.calls },
              tools,
              signal,
              (outcomes) => toolExchange(message.content, message.calls, outcomes),
            )
          : yield* finishOrNudge(tools, progress, round + 1, message.text, (nudge) =>
              nudgeExchange(message.content, nudge),
            );
      if (!goesOn) return;
    }
  }

  /**
   * The round's message, streamed: the history bounded to the agent's window (A4). An
   * `overloaded_error` event inside a stream that has shown nothing yet is retried here, with
   * the SDK's backoff (the SDK retries a 429/529 answer itself). Undefined when the call failed
   * (the error yielded) or was stopped.
   */
  private async *nextMessage(
    client: Anthropic,
    request: RunnerRequest,
    exchanges: MessageParam[][],
  ): AsyncGenerator<RunnerEvent, AssembledMessage | undefined> {
    const { signal } = request;
    const messages = this.boundedMessages(request, exchanges);
    const retries = this.options.maxRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      let streamed = false;
      try {
        const stream = await client.messages.create(this.params(request, messages), { signal });
        return yield* markStreamed(readMessageStream(stream), () => {
          streamed = true;
        });
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

  /** A4: contextSize bounds what the loop keeps; the oldest exchanges go first, whole. */
  private boundedMessages(request: RunnerRequest, exchanges: MessageParam[][]): MessageParam[] {
    const contextBudget =
      (request.agent.contextSize ?? DEFAULT_CONTEXT_TOKENS) -
      this.params(request).max_tokens -
      estimateTokens(request.system);
    const prompt: MessageParam = { role: 'user', content: request.prompt };
    // (P13: the images are not counted here; a turn's images are few and bounded in size.)
    const { kept, dropped } = fitExchanges([prompt], exchanges, contextBudget);
    const headText = dropped > 0 ? request.prompt + droppedNotice(dropped) : request.prompt;
    const head: MessageParam = { role: 'user', content: anthropicPromptContent(headText, request.images) };
    return [head, ...kept.flat()];
  }
}

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

/** Passes events through, calling `onText` once the first text or tool event is seen. */
async function* markStreamed<T>(
  source: AsyncGenerator<RunnerEvent, T>,
  onText: () => void,
): AsyncGenerator<RunnerEvent, T> {
  for (;;) {
    const next = await source.next();
    if (next.done === true) return next.value;
    if (next.value.type !== 'thinking') onText();
    yield next.value;
  }
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
