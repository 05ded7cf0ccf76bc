import OpenAI from 'openai';
import type { Runner, RunnerEvent, RunnerRequest } from '../../core/ports/runner';
import { describeOpenAiError } from './openai-errors';

export interface OpenAiRunnerOptions {
  /** An OpenAI-compatible API root, e.g. `http://localhost:11434/v1` (Ollama). Unset = OpenAI's own API. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** The model of agents that name none (A10: the default model). */
  defaultModel: string | undefined;
  /** Retries of connection errors, 408, 429 and 5xx (the SDK's default is 2). */
  maxRetries?: number;
}

/** Local servers (Ollama, LM Studio, vLLM) usually take no key, but the SDK insists on one. */
const PLACEHOLDER_KEY = 'no-key';

/**
 * The built-in loop over any OpenAI-compatible chat-completions endpoint (A9, A10): one
 * streamed completion of the composed system prompt and the turn's prompt. Tools come later.
 */
export class OpenAiRunner implements Runner {
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
    const name = request.agent.name;
    if (this.client === undefined) {
      // A10: no model server yet: say how to configure one, crash nothing.
      yield {
        type: 'error',
        message: `${name} cannot answer: no model server is configured. Set OPENAI_BASE_URL to an OpenAI-compatible server (for example http://localhost:11434/v1 for Ollama) and OPENAI_API_KEY if it needs one.`,
      };
      return;
    }
    const model = request.agent.modelId ?? this.options.defaultModel;
    if (model === undefined || model.trim() === '') {
      yield {
        type: 'error',
        message: `${name} cannot answer: no model is chosen. Set the agent's \`model\` in the workspace file (for example \`model: llama3.1\`).`,
      };
      return;
    }
    if (request.signal.aborted) return;

    yield { type: 'thinking' };
    let text = '';
    try {
      const stream = await this.client.chat.completions.create(
        {
          model,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.prompt },
          ],
          stream: true,
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta.content;
        if (typeof delta === 'string' && delta !== '') {
          text += delta;
          yield { type: 'text', delta };
        }
      }
    } catch (error) {
      // A stopped turn ends quietly: the engine already knows why it stopped.
      if (request.signal.aborted) return;
      yield {
        type: 'error',
        message: describeOpenAiError(error, {
          agentName: name,
          serverUrl: this.client.baseURL,
          model,
          apiKey: this.options.apiKey,
        }),
      };
      return;
    }
    if (request.signal.aborted) return;
    yield { type: 'final', text };
  }
}
