import { z } from 'zod';
import { defineTool } from '../../tools/tool-definition';
import { type AgentToolContext, markAwaiting, takeResumedWait } from './agent-tool-context';
import { awaitRun } from './await-run';
import { handOff, resumedHandOff } from './hand-off';

/** The tool's input (built once: T3, its JSON Schema is derived once per process). */
const delegateTaskInput = z.object({
  agent: z.string().min(1).describe('The name of the agent to delegate to.'),
  task: z.string().min(1).describe('The task, complete and self-contained, and the result you need.'),
});

/**
 * M23, M20: a child run of another agent in this conversation, which the caller waits for;
 * its reply is the tool result. Depth ≤ 3 and no cycles; a refusal is returned verbatim.
 */
export const delegateTaskTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'delegate_task',
    description:
      'Hand a task to another agent of this workspace and wait for its result (a child turn in this conversation). Describe the task completely and what result you need back.',
    input: delegateTaskInput,
    access: 'write',
    modes: ['chat'],
    classify: () => [],
    run: async (input, _scope, signal) => {
      // T2, A9: a turn resumed after its worker died waits on the child it had started.
      const resumed = takeResumedWait(ctx, 'run');
      const child =
        resumed === null
          ? await handOff(ctx, {
              tool: 'delegate_task',
              agent: input.agent,
              text: input.task,
              inCurrentConversation: true,
              awaitsUntil: null,
            })
          : await resumedHandOff(ctx, resumed);
      if (!child.ok) return { ok: false, output: child.reason };
      const name = child.target.name;
      await markAwaiting(ctx, true);
      try {
        // The caller's own abort ends the wait; the child keeps working and replies in the thread.
        const outcome = await awaitRun(ctx, { runId: child.runId }, null, signal);
        switch (outcome.state) {
          case 'succeeded':
            return { ok: true, output: `${name} finished the task:\n${outcome.reply}` };
          case 'failed':
            return { ok: false, output: `${name}'s task failed: ${outcome.error}` };
          default:
            return { ok: false, output: `Your turn was stopped while waiting for ${name}'s result.` };
        }
      } finally {
        await markAwaiting(ctx, false);
      }
    },
  });
