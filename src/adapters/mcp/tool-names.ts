import { createHash } from 'node:crypto';
import { mcpToolName } from '../../core/model/mcp/mcp-call';

/** E1: what the model providers accept as a tool's name. */
export const QUALIFIED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

/**
 * E1: `<server>__<tool>` as the model sees it. A name that does not fit the providers' pattern
 * is made to fit deterministically (the same tool always gets the same name): other characters
 * become `_`, and a name still too long keeps its first characters and ends with 8 hex digits
 * of the original's hash, so two long names sharing a prefix stay apart. Calls go to the
 * server with its own name (`McpToolInfo.tool`), never this one.
 */
export function qualifiedToolName(server: string, tool: string): string {
  const name = mcpToolName(server, tool);
  if (QUALIFIED_NAME_PATTERN.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (cleaned.length <= MAX && cleaned !== name) return cleaned;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${cleaned.slice(0, MAX - 9)}_${hash}`;
}
