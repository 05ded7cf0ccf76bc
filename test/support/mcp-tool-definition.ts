import { z } from 'zod';
import { ALL_MODES, type AnyToolDefinition, defineTool } from '../../src/core/tools/tool-definition';

/**
 * E1, E2: a tool shaped as the tool kit's MCP tools are (`<server>__<tool>`, with its MCP call
 * subject, classified `mcp`), without a server behind it: its run records what it was called
 * with and answers with the issue it "created".
 */
export function trackerCreateIssue(calls: { title: string }[] = []): AnyToolDefinition {
  return defineTool({
    name: 'tracker__create_issue',
    description: 'Create an issue in the tracker.',
    input: z.object({ title: z.string().min(1).describe('The issue title.') }),
    access: 'write',
    modes: ALL_MODES,
    classify: () => ['mcp'],
    mcp: (input) => ({ server: 'tracker', tool: 'create_issue', arguments: input, readOnly: false }),
    run: async (input) => {
      calls.push(input);
      return { ok: true, output: `Created issue #${calls.length}: ${input.title}` };
    },
  });
}
