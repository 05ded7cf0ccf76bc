import Anthropic, { APIUserAbortError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import { anthropicTokenPlan } from './anthropic-effort';
import { describeAnthropicError } from './anthropic-errors';

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
}

const PUBLIC_API = 'https://api.anthropic.com';

export const NO_ANTHROPIC_KEY_REASON =
  'no model is configured: set ANTHROPIC_API_KEY to use Anthropic models, or give the agent ' +
  '`adapter: openai` and set OPENAI_BASE_URL to use a local model server.';

/**
 * The built-in loop over the Anthropic Messages API (A9, A10): one streamed call per turn.
 * Text deltas are forwarded as they arrive and the turn ends with the whole text. Tools are
 * not offered yet: a `tool_use` stop ends the turn with the text so far.
 */
export class AnthropicRunner implements Runner {
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

  /** The body of the Messages call for a request (exposed for tests and logs; no secrets). */
  params(request: RunnerRequest): MessageCreateParamsStreaming {
    // A4: the agent's effort decides thinking (the map is in anthropic-effort.ts).
    const plan = anthropicTokenPlan(request.agent.effort, this.options.maxTokens);
    const budget = plan.thinkingBudget;
    return {
      // A10: an agent without a model runs on the default model.
      model: request.agent.modelId ?? this.options.defaultModel,
      max_tokens: plan.maxTokens,
      system: request.system,
      messages: [{ role: 'user', content: request.prompt }],
      stream: true,
      ...(budget !== undefined ? { thinking: { type: 'enabled', budget_tokens: budget } } : {}),
    };
  }

  async *run(request: RunnerRequest): AsyncIterable<RunnerEvent> {
    const client = this.client;
    if (client === undefined) {
      // A10: a missing key is a sentence in the thread, never a crash.
      yield { type: 'error', message: `${request.agent.name} cannot answer: ${NO_ANTHROPIC_KEY_REASON}` };
      return;
    }
    if (request.signal.aborted) return;
    const apiKey = this.options.apiKey ?? '';
    let text = '';
    let completed = false;
    try {
      const stream = await client.messages.create(this.params(request), { signal: request.signal });
      for await (const event of stream) {
        switch (event.type) {
          case 'message_start':
            yield { type: 'thinking' };
            break;
          case 'content_block_start':
            if (event.content_block.type === 'thinking' || event.content_block.type === 'redacted_thinking') {
              yield { type: 'thinking' };
            }
            break;
          case 'content_block_delta':
            if (event.delta.type === 'text_delta' && event.delta.text !== '') {
              text += event.delta.text;
              yield { type: 'text', delta: event.delta.text };
            }
            break;
          case 'message_stop':
            completed = true;
            break;
          default:
            // message_delta (stop_reason: end_turn, max_tokens, tool_use, …) and
            // content_block_stop need nothing: every stop ends with the text so far.
            break;
        }
      }
    } catch (error) {
      if (request.signal.aborted || error instanceof APIUserAbortError) return;
      yield { type: 'error', message: describeAnthropicError(error, apiKey) };
      return;
    }
    if (request.signal.aborted) return;
    if (!completed) {
      yield { type: 'error', message: 'The Anthropic API stream ended before the message was complete.' };
      return;
    }
    yield { type: 'final', text };
  }
}
