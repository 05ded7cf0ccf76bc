import type { Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ToolSpec } from '../../core/ports/turn-tools';

const CACHED = Object.freeze({ type: 'ephemeral' } as const);

/**
 * The Messages API tools a turn offers are the same objects from turn to turn (A9: the surface
 * the space mode gives), so a request's body can keep each one's JSON (`request-body.ts`). A
 * tool whose schema is frozen (derived once by `toolSpec`, T3) is built once per name and
 * description and frozen; any other (an MCP server's own schema, E1) is built afresh each call.
 */
const built = new WeakMap<object, Tool[]>();
const marked = new WeakMap<Tool, Tool>();

/** A14: the turn's tools, a cache breakpoint on the last one (the whole list is one cached prefix). */
export function anthropicTools(specs: readonly ToolSpec[]): Tool[] {
  return specs.map((spec, index) => {
    const tool = anthropicTool(spec);
    return index === specs.length - 1 ? withBreakpoint(tool) : tool;
  });
}

function anthropicTool(spec: ToolSpec): Tool {
  const schema = spec.inputSchema;
  if (!Object.isFrozen(schema)) return toolOf(spec);
  const known = built.get(schema);
  if (known !== undefined)
    for (const tool of known)
      if (tool.name === spec.name && tool.description === spec.description) return tool;
  const tool = Object.freeze(toolOf(spec));
  built.set(schema, [...(known ?? []), tool]);
  return tool;
}

const toolOf = (spec: ToolSpec): Tool => ({
  name: spec.name,
  description: spec.description,
  input_schema: spec.inputSchema as Tool.InputSchema,
});

function withBreakpoint(tool: Tool): Tool {
  if (!Object.isFrozen(tool)) return Object.assign({}, tool, { cache_control: CACHED });
  const known = marked.get(tool);
  if (known !== undefined) return known;
  const breakpoint = Object.freeze(Object.assign({}, tool, { cache_control: CACHED }));
  marked.set(tool, breakpoint);
  return breakpoint;
}
