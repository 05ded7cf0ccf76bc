import { z } from 'zod';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import type { AgentToolContext } from './agent-tool-context';
import { relayCallActions, remoteTargetOf } from './remote-agent';

/** The tool's input (built once: T3, its JSON Schema is derived once per process). */
const listRemoteAgentsInput = z.object({
  relay: z.string().min(1).describe('The paired relay’s name, e.g. "build-box".'),
});

/**
 * R1 `read`: the agents of a paired relay's workspace and its recent sessions, when that
 * relay grants this workspace at least `read` (it checks, and says why when it does not).
 */
export const listRemoteAgentsTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'list_remote_agents',
    description:
      'List the agents (and recent sessions) of a paired relay, another Summon deployment, to know whom to ask there with agent@relay.',
    input: listRemoteAgentsInput,
    access: 'read',
    modes: ALL_MODES,
    // G1, N13: a call to another relay is `network`: a guardrail may make it ask a person first.
    classify: (input) => relayCallActions(ctx, { agent: `someone@${input.relay}`, relay: input.relay }),
    run: async (input) => {
      const target = remoteTargetOf(ctx, { agent: `someone@${input.relay}`, relay: input.relay });
      if (target === null)
        return {
          ok: false,
          output: `${input.relay} is this relay; its agents are the ones you can ask by name.`,
        };
      if ('refused' in target) return { ok: false, output: target.refused };
      const listed = await target.client.agents(ctx.turn.agent.workspaceId, target.relay);
      if (!listed.ok)
        return { ok: false, output: `list_remote_agents refused by relay ${target.relay}: ${listed.reason}` };
      const { agents, sessions } = listed.value;
      const agentLines = agents.map(
        (a) => `- ${a.name}@${target.relay}${a.title === null ? '' : `: ${a.title}`}`,
      );
      const sessionLines = sessions.map((s) => `- "${s.title}" (space ${s.space})`);
      return {
        ok: true,
        output: [
          `Agents on relay ${target.relay}:`,
          ...(agentLines.length > 0 ? agentLines : ['(none)']),
          `Recent sessions there:`,
          ...(sessionLines.length > 0 ? sessionLines : ['(none)']),
        ].join('\n'),
      };
    },
  });
