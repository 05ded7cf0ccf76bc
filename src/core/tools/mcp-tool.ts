import { z } from 'zod';
import type { McpToolInfo } from '../ports/mcp-clients';
import type { ToolOutcome } from '../ports/turn-tools';
import { ALL_MODES, type AnyToolDefinition, defineTool } from './tool-definition';

/** E1: what Summon checks of an MCP tool's input: an object (its server checks the rest, by its schema). */
const MCP_INPUT = z.record(z.string(), z.unknown());

/**
 * E1, E4, A9: one tool of an MCP server as a tool of the built-in harness: `<server>__<tool>`,
 * the server's description and input schema unchanged, `read` when the server annotates it
 * read-only (so plan and review modes offer it) and `write` otherwise, action `mcp` for the
 * guardrails with the call's server, tool and arguments. `call` makes the call through Summon
 * (E2: the run never holds the server's credentials).
 */
export function mcpToolDefinition(
  info: McpToolInfo,
  call: (args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolOutcome>,
): AnyToolDefinition {
  return defineTool<Record<string, unknown>>({
    name: info.qualifiedName,
    description: info.description,
    input: MCP_INPUT,
    inputJsonSchema: info.inputSchema,
    access: info.readOnly ? 'read' : 'write',
    modes: ALL_MODES,
    classify: () => ['mcp'],
    mcp: (args) => ({ server: info.server, tool: info.tool, arguments: args, readOnly: info.readOnly }),
    run: (args, _scope, signal) => call(args, signal),
  });
}
