import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions';
import type { TokenUsage } from '../../core/model/usage/token-usage';
import type { RunnerEvent } from '../../core/ports/runner';
import type { ToolCall } from '../../core/ports/turn-tools';
import { tokenCount } from '../../core/usage/token-usage';
import { parseToolInput } from './tool-round';

/** One streamed completion, assembled: the assistant message to send back and its calls. */
export interface AssembledCompletion {
  message: ChatCompletionAssistantMessageParam;
  text: string;
  calls: (ToolCall & { inputError?: string })[];
  finishReason: string | null;
  /** O3: the last chunk's `usage` (asked for with `stream_options.include_usage`); none when the server sent none. */
  usage: TokenUsage | undefined;
  /** The model the chunks name. */
  model: string | undefined;
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

/**
 * Reads one chat-completions stream: forwards content deltas as runner events and joins the
 * `tool_calls` deltas (by index: id and name first, then argument fragments).
 */
export async function* readCompletionStream(
  stream: AsyncIterable<ChatCompletionChunk>,
): AsyncGenerator<RunnerEvent, AssembledCompletion> {
  let text = '';
  let finishReason: string | null = null;
  const partial = new Map<number, PartialCall>();
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  for await (const chunk of stream) {
    if (chunk.model) model = chunk.model;
    // O3: the usage chunk comes last, with no choices; cached prompt tokens are part of prompt_tokens.
    if (chunk.usage != null) {
      const cached = tokenCount(chunk.usage.prompt_tokens_details?.cached_tokens);
      usage = {
        inputTokens: Math.max(0, tokenCount(chunk.usage.prompt_tokens) - cached),
        outputTokens: tokenCount(chunk.usage.completion_tokens),
        cacheReadTokens: cached,
        cacheWriteTokens: 0,
      };
    }
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const content = choice.delta.content;
    if (typeof content === 'string' && content !== '') {
      text += content;
      yield { type: 'text', delta: content };
    }
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = partial.get(delta.index) ?? { id: '', name: '', args: '' };
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
      partial.set(delta.index, call);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const ordered = [...partial.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  const calls = ordered.map((call) => {
    const parsed = parseToolInput(call.args);
    return {
      callId: call.id,
      name: call.name,
      input: parsed.input,
      ...(parsed.inputError !== undefined ? { inputError: parsed.inputError } : {}),
    };
  });
  const message: ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: text === '' ? null : text,
    ...(ordered.length > 0
      ? {
          tool_calls: ordered.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.args === '' ? '{}' : call.args },
          })),
        }
      : {}),
  };
  return { message, text, calls, finishReason, usage, model };
}
