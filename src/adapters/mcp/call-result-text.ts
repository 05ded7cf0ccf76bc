import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../../core/ports/turn-tools';

/** E3: the most text of one answer the model is given (longer answers are cut, with a note). */
export const DEFAULT_MAX_RESULT_CHARS = 64 * 1024;

/**
 * E3: an MCP tool's answer as the model reads it. Text and structured content are text;
 * images, audio and binary resources are one sentence each (what they are, how large), never
 * their bytes. `isError` answers are failures with the server's own words. What the server
 * says is untrusted: it is cut at `maxChars`, and `redact` removes the server's credentials
 * (E2: the run never holds them, even when a server repeats them).
 */
export function resultOutcome(
  result: CallToolResult,
  name: string,
  options: { maxChars: number; redact: (text: string) => string },
): ToolOutcome {
  const parts = (result.content ?? []).map(contentText);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  const text = options.redact(parts.join('\n'));
  const shown =
    text.length <= options.maxChars
      ? text
      : `${text.slice(0, options.maxChars)}\n[${name} answered ${text.length.toLocaleString('en-US')} characters; only the first ${options.maxChars.toLocaleString('en-US')} are shown.]`;
  if (result.isError === true) {
    return { ok: false, output: shown === '' ? `${name} failed without saying why.` : shown };
  }
  return { ok: true, output: shown === '' ? `${name} answered nothing.` : shown };
}

function contentText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[an image (${block.mimeType}, ${decodedBytes(block.data)} bytes), not shown]`;
    case 'audio':
      return `[audio (${block.mimeType}, ${decodedBytes(block.data)} bytes), not shown]`;
    case 'resource_link':
      return `[a resource: ${block.name} at ${block.uri}]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string')
        return `[${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[a binary resource ${resource.uri} (${resource.mimeType ?? 'unknown type'}, ${decodedBytes(blob)} bytes), not shown]`;
    }
    default:
      return '[content of a kind Summon does not show]';
  }
}

/** The size of base64 `data` once decoded (without decoding it). */
const decodedBytes = (data: string): number => Math.floor((data.replace(/=+$/, '').length * 3) / 4);
