import type { GuardrailAction } from '../model/guardrail';

/**
 * E4: what an `mcp` call is, as the rules see it: the qualified name the model saw
 * (`<server>__<tool>`) and whether the tool is annotated read-only; `readOnly` is unknown
 * (undefined) where nothing asked the server (`summon guardrails explain`).
 */
export interface McpRuleSubject {
  tool: string;
  readOnly?: boolean;
}

/** E4: a rule's `tool`: an exact `<server>__<tool>` or a server's wildcard `<server>__*`. */
export const MCP_TOOL_RULE_PATTERN = /^[a-z0-9][a-z0-9_-]*__(\*|[A-Za-z0-9_.\-/]+)$/;

export const MCP_TOOL_RULE_USAGE =
  'write "<server>__<tool>" for one tool (for example "linear__create_issue") or "<server>__*" for every tool of a server';

/**
 * E4: why a rule's `tool` cannot be written as given, as a sentence; null when it can. Only
 * `mcp` rules name a tool.
 */
export function toolRuleProblem(
  action: GuardrailAction | string,
  tool: string | null | undefined,
): string | null {
  if (tool === null || tool === undefined) return null;
  if (action !== 'mcp') {
    return `Only an mcp rule can name a tool; "${action}" is not about MCP tools, so remove "tool: ${tool}" or use action mcp.`;
  }
  if (!MCP_TOOL_RULE_PATTERN.test(tool)) return `The tool "${tool}" cannot be read: ${MCP_TOOL_RULE_USAGE}.`;
  return null;
}

/**
 * E4: how exactly a rule's `tool` names the call: 2 for the tool itself, 1 for its server's
 * wildcard, 0 for a rule about every tool; null when the rule names another tool (it is
 * ignored). A rule that names a tool never matches a call whose tool is unknown.
 */
export function toolSpecificity(ruleTool: string | null, subject: McpRuleSubject | undefined): number | null {
  if (ruleTool === null) return 0;
  if (subject === undefined) return null;
  if (ruleTool === subject.tool) return 2;
  if (ruleTool.endsWith('__*') && subject.tool.startsWith(ruleTool.slice(0, -1))) return 1;
  return null;
}
