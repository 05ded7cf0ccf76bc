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
import { anthropicPromptContent } from './image-content';
import { checkpointedRound, runToolRound, startToolLoop } from './tool-round';

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
    const apiKey = this.options.apiKey ?? '';
    const { tools, signal } = request;
    const first = this.params(request);
    const contextBudget =
      (request.agent.contextSize ?? DEFAULT_CONTEXT_TOKENS) -
      first.max_tokens -
      estimateTokens(request.system);
    const maxRounds = this.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS;
    // T2: a new turn is checkpointed at once; a resumed one goes on from its checkpoint.
    const progress = yield* startToolLoop<MessageParam[]>(
      request,
      CHECKPOINT_FORMAT,
      tools,
      signal,
      (pending, outcomes) => [
        { role: 'assistant', content: pending.assistant as ContentBlockParam[] },
        { role: 'user', content: toolResults(pending.calls, outcomes) },
      ],
      withSteering,
    );
    if (progress === null) return;
    const { exchanges, save } = progress;
    for (let round = progress.firstRound; ; round++) {
      if (signal.aborted) return;
      // A4: contextSize bounds what the loop keeps; the oldest exchanges go first, whole.
      const prompt: MessageParam = { role: 'user', content: request.prompt };
      // (P13: the images are not counted here; a turn's images are few and bounded in size.)
      const { kept, dropped } = fitExchanges([prompt], exchanges, contextBudget);
      const headText = dropped > 0 ? request.prompt + droppedNotice(dropped) : request.prompt;
      const head: MessageParam = { role: 'user', content: anthropicPromptContent(headText, request.images) };
      let message: AssembledMessage | undefined;
      const retries = this.options.maxRetries ?? 2;
      for (let attempt = 0; message === undefined; attempt++) {
        let streamed = false;
        try {
          const stream = await client.messages.create(this.params(request, [head, ...kept.flat()]), {
            signal,
          });
          message = yield* markStreamed(readMessageStream(stream), () => {
            streamed = true;
          });
        } catch (error) {
          if (signal.aborted || error instanceof APIUserAbortError) return;
          // The SDK retries a 429/529 answer; an `overloaded_error` event inside a stream that
          // has shown nothing yet is retried here, with the same backoff.
          if (!streamed && attempt < retries && isOverloadedEvent(error)) {
            await backoff(attempt, signal);
            continue;
          }
          yield { type: 'error', message: describeAnthropicError(error, apiKey, retries) };
          return;
        }
      }
      if (signal.aborted) return;
      // O3: the call's usage, before anything else happens (a budget may end the turn here).
      yield { type: 'usage', model: message.model ?? this.params(request).model, usage: message.usage };
      if (!message.completed) {
        yield { type: 'error', message: 'The Anthropic API stream ended before the message was complete.' };
        return;
      }
      if (message.stopReason === 'tool_use' && message.calls.length > 0) {
        if (round >= maxRounds) {
          yield {
            type: 'error',
            message: `stopped after ${maxRounds} rounds of tool calls without an answer.`,
          };
          return;
        }
        // T2: before each call the round is checkpointed with that call in flight.
        const pending = { assistant: message.content, calls: message.calls, outcomes: [], inFlight: false };
        const outcomes = yield* runToolRound(
          message.calls,
          tools,
          signal,
          checkpointedRound(pending, round, save),
        );
        if (signal.aborted) return;
        yield* progress.endRound(
          [
            { role: 'assistant', content: message.content },
            { role: 'user', content: toolResults(message.calls, outcomes) },
          ],
          round + 1,
        );
        continue;
      }
      // A9: a completion contract (plan mode: submit_plan) nudges once, then fails the turn.
      const nudge = tools.completion?.unmet();
      if (nudge !== undefined && tools.completion !== undefined) {
        if (progress.nudged) {
          yield { type: 'error', message: tools.completion.failure };
          return;
        }
        progress.nudged = true;
        const said: ContentBlockParam[] =
          message.content.length > 0 ? message.content : [{ type: 'text', text: '(no answer)' }];
        exchanges.push([
          { role: 'assistant', content: said },
          { role: 'user', content: nudge },
        ]);
        await save(round + 1, null);
        continue;
      }
      yield { type: 'final', text: message.text };
      return;
    }
  }
}

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
