import { z } from 'zod';
import { ALL_MODES, type AnyToolDefinition, defineTool } from '../../src/core/tools/tool-definition';

/**
 * E1, E2: a tool as the MCP client's tool kit offers it (`<server>__<tool>`, marked `mcp`,
 * classified `mcp`), standing in for a declared server's tool until those are on main: its run
 * records what it was called with and answers with the issue it "created".
 */
export function trackerCreateIssue(calls: { title: string }[] = []): AnyToolDefinition {
  return defineTool({
    name: 'tracker__create_issue',
    source: 'mcp',
    description: 'Create an issue in the tracker.',
    input: z.object({ title: z.string().min(1).describe('The issue title.') }),
    access: 'write',
    modes: ALL_MODES,
    classify: () => ['mcp'],
    run: async (input) => {
      calls.push(input);
      return { ok: true, output: `Created issue #${calls.length}: ${input.title}` };
    },
  });
}
