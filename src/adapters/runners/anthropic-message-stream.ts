import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  StopReason,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { TokenUsage } from '../../core/model/usage/token-usage';
import type { RunnerEvent } from '../../core/ports/runner';
import type { ToolCall } from '../../core/ports/turn-tools';
import { tokenCount } from '../../core/usage/token-usage';
import { parseToolInput } from './tool-round';

type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string };

/** One streamed assistant message, assembled: what to send back, and the calls to run. */
export interface AssembledMessage {
  /** The assistant's content as the next request must repeat it (thinking blocks included). */
  content: ContentBlockParam[];
  text: string;
  calls: (ToolCall & { inputError?: string })[];
  stopReason: StopReason | null;
  completed: boolean;
  /** O3: `message_start`'s usage, updated by `message_delta`'s cumulative counts. */
  usage: TokenUsage;
  /** The model that answered, as `message_start` names it. */
  model: string | undefined;
}

/**
 * One Messages API stream, read event by event (`take`, called by the runner's own loop over
 * the SDK's stream: no generator of its own between the stream and the turn): thinking and text
 * deltas become runner events, and the content blocks (text, thinking with its signature,
 * tool_use with its JSON input) are assembled so the loop can send them back with the tool
 * results (`message`).
 */
export class MessageAssembly {
  private readonly blocks = new Map<number, Block>();
  private stopReason: StopReason | null = null;
  private completed = false;
  private model: string | undefined;
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  /** The event's share of the message; what the turn is shown of it, if anything. */
  take(event: RawMessageStreamEvent): RunnerEvent | undefined {
    switch (event.type) {
      case 'message_start': {
        const reported = event.message.usage;
        this.model = event.message.model;
        this.usage = {
          inputTokens: tokenCount(reported?.input_tokens),
          outputTokens: tokenCount(reported?.output_tokens),
          cacheReadTokens: tokenCount(reported?.cache_read_input_tokens),
          cacheWriteTokens: tokenCount(reported?.cache_creation_input_tokens),
        };
        return { type: 'thinking' };
      }
      case 'content_block_start':
        return this.started(event.index, event.content_block);
      case 'content_block_delta': {
        const block = this.blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta' && block?.type === 'text' && delta.text !== '') {
          block.text += delta.text;
          return { type: 'text', delta: delta.text };
        }
        if (delta.type === 'thinking_delta' && block?.type === 'thinking') block.thinking += delta.thinking;
        else if (delta.type === 'signature_delta' && block?.type === 'thinking')
          block.signature += delta.signature;
        else if (delta.type === 'input_json_delta' && block?.type === 'tool_use')
          block.json += delta.partial_json;
        return undefined;
      }
      case 'message_delta':
        this.stopReason = event.delta.stop_reason;
        // The delta's counts are cumulative: they replace the start's where given.
        this.usage = deltaUsage(this.usage, event.usage);
        return undefined;
      case 'message_stop':
        this.completed = true;
        return undefined;
      default:
        return undefined;
    }
  }

  /** The message as assembled from the events taken. */
  message(): AssembledMessage {
    return assemble(
      [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b),
      this.stopReason,
      this.completed,
      this.usage,
      this.model,
    );
  }

  private started(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): RunnerEvent | undefined {
    if (block.type === 'text') this.blocks.set(index, { type: 'text', text: block.text });
    else if (block.type === 'thinking') {
      this.blocks.set(index, { type: 'thinking', thinking: block.thinking, signature: block.signature });
      return { type: 'thinking' };
    } else if (block.type === 'redacted_thinking') {
      this.blocks.set(index, { type: 'redacted_thinking', data: block.data });
      return { type: 'thinking' };
    } else if (block.type === 'tool_use') {
      this.blocks.set(index, { type: 'tool_use', id: block.id, name: block.name, json: '' });
    }
    return undefined;
  }
}

/** `message_delta` usage counts are cumulative; a null count leaves the start's. */
function deltaUsage(usage: TokenUsage, delta: MessageDeltaUsage | undefined): TokenUsage {
  if (delta === undefined) return usage;
  const pick = (value: number | null | undefined, before: number) =>
    value == null ? before : tokenCount(value);
  return {
    inputTokens: pick(delta.input_tokens, usage.inputTokens),
    outputTokens: pick(delta.output_tokens, usage.outputTokens),
    cacheReadTokens: pick(delta.cache_read_input_tokens, usage.cacheReadTokens),
    cacheWriteTokens: pick(delta.cache_creation_input_tokens, usage.cacheWriteTokens),
  };
}

function assemble(
  blocks: Block[],
  stopReason: StopReason | null,
  completed: boolean,
  usage: TokenUsage,
  model: string | undefined,
): AssembledMessage {
  const content: ContentBlockParam[] = [];
  const calls: AssembledMessage['calls'] = [];
  let text = '';
  for (const block of blocks) {
    if (block.type === 'text') {
      text += block.text;
      // The API refuses empty text blocks in a request.
      if (block.text !== '') content.push({ type: 'text', text: block.text });
    } else if (block.type === 'thinking') {
      content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking') {
      content.push({ type: 'redacted_thinking', data: block.data });
    } else {
      const parsed = parseToolInput(block.json);
      const input = isObject(parsed.input) ? parsed.input : {};
      content.push({ type: 'tool_use', id: block.id, name: block.name, input });
      calls.push({
        callId: block.id,
        name: block.name,
        input,
        ...(parsed.inputError !== undefined ? { inputError: parsed.inputError } : {}),
      });
    }
  }
  return { content, text, calls, stopReason, completed, usage, model };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export type { MessageCreateParamsStreaming };
