import type { RunnerEvent } from '../../../core/ports/runner';
import { tokenCount } from '../../../core/usage/token-usage';
import { summarizeToolInput } from './tool-summary';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const contentOf = (event: Json): unknown[] => {
  const message = event.message;
  return isObject(message) && Array.isArray(message.content) ? message.content : [];
};

/** The top-level `type`s of Claude Code's `--output-format stream-json` lines. */
const STREAM_JSON_TYPES = new Set(['system', 'assistant', 'user', 'result', 'stream_event']);

/** Whether a line of output is a Claude Code stream-json event (decides the output's format). */
export function isStreamJsonLine(line: string): boolean {
  try {
    const parsed: unknown = JSON.parse(line);
    return isObject(parsed) && typeof parsed.type === 'string' && STREAM_JSON_TYPES.has(parsed.type);
  } catch {
    return false;
  }
}

/**
 * Translates Claude Code's stream-json events (one JSON object a line: `system`/`init`,
 * `assistant` messages with `text`/`tool_use` blocks, `user` messages with `tool_result`
 * blocks, one `result`) into runner events: text, one status-card row per tool call (P9), and
 * the final reply or the error.
 */
export class StreamJsonTranslator {
  private readonly toolNames = new Map<string, string>();
  private ended = false;
  /** The model `system`/`init` names (Claude Code's `model`). */
  private model = 'claude-code';

  /** Whether the `result` event has arrived. */
  get finished(): boolean {
    return this.ended;
  }

  translate(line: string): RunnerEvent[] {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return []; // a stray non-JSON line (a warning) is not part of the answer
    }
    if (!isObject(event)) return [];
    switch (event.type) {
      case 'system':
        if (event.subtype !== 'init') return [];
        if (typeof event.model === 'string' && event.model !== '') this.model = event.model;
        return [{ type: 'thinking' }];
      case 'assistant':
        return contentOf(event).flatMap((block) => this.assistantBlock(block));
      case 'user':
        return contentOf(event).flatMap((block) => this.toolResult(block));
      case 'result':
        return this.result(event);
      default:
        return [];
    }
  }

  private assistantBlock(block: unknown): RunnerEvent[] {
    if (!isObject(block)) return [];
    if (block.type === 'text' && typeof block.text === 'string' && block.text !== '')
      return [{ type: 'text', delta: block.text }];
    if (block.type === 'thinking') return [{ type: 'thinking' }];
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      this.toolNames.set(block.id, block.name);
      return [
        { type: 'tool_start', callId: block.id, tool: block.name, summary: summarizeToolInput(block.input) },
      ];
    }
    return [];
  }

  private toolResult(block: unknown): RunnerEvent[] {
    if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') return [];
    const tool = this.toolNames.get(block.tool_use_id) ?? 'tool';
    const ok = block.is_error !== true;
    return [{ type: 'tool_end', callId: block.tool_use_id, ok, summary: ok ? tool : `${tool} failed` }];
  }

  private result(event: Json): RunnerEvent[] {
    this.ended = true;
    const text = typeof event.result === 'string' ? event.result : '';
    const usage = this.usageOf(event);
    if (event.is_error === true || (typeof event.subtype === 'string' && event.subtype.startsWith('error'))) {
      const why = text.trim() !== '' ? text.trim() : String(event.subtype ?? 'an error');
      return [...usage, { type: 'error', message: why }];
    }
    return [...usage, { type: 'final', text }];
  }

  /** O3: the `result` event's `usage` (the whole session's) and `total_cost_usd`. */
  private usageOf(event: Json): RunnerEvent[] {
    const usage = event.usage;
    if (!isObject(usage)) return [];
    const cost = event.total_cost_usd;
    return [
      {
        type: 'usage',
        model: this.model,
        usage: {
          inputTokens: tokenCount(usage.input_tokens),
          outputTokens: tokenCount(usage.output_tokens),
          cacheReadTokens: tokenCount(usage.cache_read_input_tokens),
          cacheWriteTokens: tokenCount(usage.cache_creation_input_tokens),
        },
        ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {}),
      },
    ];
  }
}
