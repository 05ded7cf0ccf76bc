import { z } from 'zod';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import type { AgentToolContext } from './agent-tool-context';
import { handOff } from './hand-off';
import { relayCallActions, remoteTargetOf, sendRemote } from './remote-agent';

export const handoffInput = z.object({
  agent: z
    .string()
    .min(1)
    .describe('The name of the agent to reach, e.g. "qa", or "qa@build-box" for an agent of a paired relay.'),
  text: z.string().min(1).describe('What to tell it: a complete prompt, as you would write to a colleague.'),
  space: z
    .string()
    .min(1)
    .optional()
    .describe('Optional: the space to reach it in. By default this conversation, if it takes part here.'),
  relay: z
    .string()
    .min(1)
    .optional()
    .describe('Optional: the paired relay the agent is on (the same as writing agent@relay).'),
});

/**
 * M23, N1, N4: posts a note into a conversation of another agent, which starts its turn, and
 * returns at once with where it went; the reply appears there, not here.
 */
export const sendToAgentTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'send_to_agent',
    description:
      'Send a message to another agent of this workspace; it starts working on it in its own turn. Returns at once and does not wait for an answer (use ask_agent to wait for one).',
    input: handoffInput,
    access: 'read',
    modes: ALL_MODES,
    // G1, N13: an agent of another relay is reached over the network (a guardrail may ask first).
    classify: (input) => relayCallActions(ctx, input),
    run: async (input) => {
      // R2: an agent of a paired relay gets the note there; it returns at once, as here.
      const remote = remoteTargetOf(ctx, input);
      if (remote !== null) {
        if ('refused' in remote) return { ok: false, output: remote.refused };
        const sentThere = await sendRemote(ctx, 'send_to_agent', remote, input.text, input.space);
        if (!sentThere.ok) return { ok: false, output: sentThere.reason };
        return {
          ok: true,
          output: `Sent to ${sentThere.value.agent} in ${sentThere.value.where}; it is working on it. Its reply will appear there.`,
        };
      }
      const sent = await handOff(ctx, {
        tool: 'send_to_agent',
        agent: input.agent,
        text: input.text,
        ...(input.space === undefined ? {} : { space: input.space }),
      });
      if (!sent.ok) return { ok: false, output: sent.reason };
      return {
        ok: true,
        output: `Sent to ${sent.target.name} in ${sent.where}; it is working on it. Its reply will appear there.`,
      };
    },
  });
