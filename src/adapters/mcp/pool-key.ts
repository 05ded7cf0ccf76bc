import { createHash } from 'node:crypto';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import type { McpCallContext } from '../../core/ports/mcp-clients';

/**
 * E2, E5: one connection per workspace and expanded spec (a new credential is a new
 * connection), and per member for a server that uses each member's own tokens (`tokens:
 * member`): a connection carries its owner's token, never shared with another member.
 */
export function poolKey(context: McpCallContext, spec: McpServerSpec): string {
  const hash = createHash('sha256').update(stableJson(spec)).digest('hex');
  const member = needsOAuth(spec) && spec.auth.tokens === 'member' ? `:${context.memberId ?? '-'}` : '';
  return `${context.workspaceId}:${hash}${member}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
