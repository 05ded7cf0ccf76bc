import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolInfo, McpUnavailable } from '../../core/ports/mcp-clients';
import { qualifiedToolName } from './tool-names';

/** E3: what one server's list may put in front of the model, at most (every request carries it). */
export const TOOL_LIST_LIMITS = { tools: 128, descriptionChars: 4000, schemaChars: 32_000 };

/**
 * E1, E3: a server's listed tools as the model is offered them. The list is untrusted: a
 * description is cut at 4,000 characters (with a note), and a tool whose input schema is larger
 * than 32,000 characters of JSON, or past the 128th, is left out with a sentence.
 */
export function toolInfos(
  server: string,
  tools: readonly Tool[],
  redact: (text: string) => string,
): { tools: McpToolInfo[]; unavailable: McpUnavailable[] } {
  const unavailable: McpUnavailable[] = [];
  if (tools.length > TOOL_LIST_LIMITS.tools) {
    unavailable.push({
      server,
      reason: `The MCP server ${server} lists ${tools.length} tools; only its first ${TOOL_LIST_LIMITS.tools} are offered.`,
    });
  }
  const infos: McpToolInfo[] = [];
  for (const tool of tools.slice(0, TOOL_LIST_LIMITS.tools)) {
    if (JSON.stringify(tool.inputSchema).length > TOOL_LIST_LIMITS.schemaChars) {
      unavailable.push({
        server,
        reason: `The MCP server ${server}'s tool "${tool.name}" was left out: its input schema is larger than ${TOOL_LIST_LIMITS.schemaChars.toLocaleString('en-US')} characters.`,
      });
      continue;
    }
    const description = redact(tool.description ?? tool.title ?? '');
    infos.push({
      server,
      tool: tool.name,
      qualifiedName: qualifiedToolName(server, tool.name),
      description:
        description.length <= TOOL_LIST_LIMITS.descriptionChars
          ? description
          : `${description.slice(0, TOOL_LIST_LIMITS.descriptionChars)} [description cut]`,
      inputSchema: tool.inputSchema as Record<string, unknown>,
      readOnly: tool.annotations?.readOnlyHint === true,
    });
  }
  return { tools: infos, unavailable };
}
