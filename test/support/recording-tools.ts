import type { ToolCall, ToolOutcome, ToolSpec, TurnTools } from '../../src/core/ports/turn-tools';

/** The schema of a tool that takes one string `path`, as the real file tools do. */
export const pathTool = (name: string, description = `The ${name} tool.`): ToolSpec => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'A relative path.' } },
    required: ['path'],
    additionalProperties: false,
  },
});

/**
 * A `TurnTools` for runner tests (a fake of the port, not of our code): offers the given
 * specs, records every call and answers with `answer` (by default `ran <name>`).
 */
export function recordingTools(
  specs: ToolSpec[],
  answer: (call: ToolCall) => ToolOutcome = (call) => ({ ok: true, output: `ran ${call.name}` }),
  completion?: TurnTools['completion'],
): TurnTools & { calls: ToolCall[] } {
  const calls: ToolCall[] = [];
  return {
    specs,
    calls,
    call: async (call) => {
      calls.push(call);
      return answer(call);
    },
    authorize: async () => ({ allowed: true }),
    ...(completion !== undefined ? { completion } : {}),
  };
}
