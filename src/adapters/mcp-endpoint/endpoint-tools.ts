import type { ToolSpec, TurnTools } from '../../core/ports/turn-tools';

/**
 * E1, E2: the tools Summon's endpoint offers a run's CLI agent: the turn's tools that come
 * from declared MCP servers (`<server>__<tool>`), and nothing of the built-in harness (the
 * agent has its own shell and files; Summon's `bash` or agent tools are not for it here).
 */
export function endpointSpecs(tools: TurnTools): ToolSpec[] {
  return tools.specs.filter((spec) => spec.source === 'mcp' && spec.name.includes('__'));
}

/** Whether the turn has any tool the endpoint would offer (no endpoint otherwise). */
export const hasEndpointTools = (tools: TurnTools): boolean => endpointSpecs(tools).length > 0;

/** E2, A9: the sentence for a tool the agent may not use in this space: never forwarded. */
export function notOfferedSentence(name: string, offered: readonly ToolSpec[]): string {
  const names = offered.map((spec) => spec.name);
  const list = names.length === 0 ? 'none' : names.join(', ');
  return `There is no tool named ${name} for this agent in this space, so Summon did not call it. The tools it may use here: ${list}.`;
}
