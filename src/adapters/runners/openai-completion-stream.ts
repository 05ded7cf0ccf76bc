import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions';
import type { RunnerEvent } from '../../core/ports/runner';
import type { ToolCall } from '../../core/ports/turn-tools';
import { parseToolInput } from './tool-round';

/** One streamed completion, assembled: the assistant message to send back and its calls. */
export interface AssembledCompletion {
  message: ChatCompletionAssistantMessageParam;
  text: string;
  calls: (ToolCall & { inputError?: string })[];
  finishReason: string | null;
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
  for await (const chunk of stream) {
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
  return { message, text, calls, finishReason };
}
