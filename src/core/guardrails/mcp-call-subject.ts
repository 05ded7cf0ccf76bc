import { createHash } from 'node:crypto';
import { type McpCallSubject, mcpToolName } from '../model/mcp/mcp-call';
import type { McpRuleSubject } from './mcp-tool-rule';

/** E4: what the rules see of a call: its qualified name and its read-only annotation. */
export const ruleSubjectOf = (call: McpCallSubject): McpRuleSubject => ({
  tool: mcpToolName(call.server, call.tool),
  readOnly: call.readOnly,
});

/**
 * JSON with every object's keys sorted, at every depth, so that the same arguments written in
 * another key order are the same text. Values JSON cannot hold are dropped as `JSON.stringify`
 * drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? 'null';
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  // No prototype: a key named `__proto__` stays a key of the arguments (and of the hash).
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort())
    sorted[key] = sortedKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * E4: what an approval of an MCP call is bound to: a SHA-256 of the server, the tool and the
 * canonical JSON of the arguments. The same call in another key order has the same hash; any
 * other server, tool or argument value has another.
 */
export function mcpSubjectHash(call: Pick<McpCallSubject, 'server' | 'tool' | 'arguments'>): string {
  const text = canonicalJson({ server: call.server, tool: call.tool, arguments: call.arguments });
  return createHash('sha256').update(text).digest('hex');
}
