/**
 * E4: what one MCP call is, for the guardrails (rule `tool` patterns, the read-only default),
 * the approval card (server, tool, arguments) and the approval's binding (a hash of all three).
 */
export interface McpCallSubject {
  server: string;
  /** The server's own name for the tool (without the `<server>__` prefix). */
  tool: string;
  arguments: Readonly<Record<string, unknown>>;
  /** E4: the tool's MCP annotations say `readOnlyHint: true`. */
  readOnly: boolean;
}

/** E1: the name a model sees: `<server>__<tool>`. */
export const mcpToolName = (server: string, tool: string): string => `${server}__${tool}`;
