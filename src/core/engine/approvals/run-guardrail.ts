import { type GuardrailResolution, type McpRuleSubject, resolveGuardrail } from '../../guardrails';
import type { GuardrailAction } from '../../model/guardrail';
import { canApprove } from '../../model/member';
import type { AgentRecord, SpaceRecord } from '../../model/records';
import type { StoreTx } from '../../ports/store';

/**
 * G1, G2, G2a, G2b, E4: the workspace's rules for `actions` by this agent in this space, resolved,
 * with whether an `ask` could be answered at all (an approver, a bound channel for the card).
 */
export async function resolveRunGuardrail(
  tx: StoreTx,
  agent: AgentRecord,
  space: SpaceRecord,
  actions: GuardrailAction | readonly GuardrailAction[],
  subject?: McpRuleSubject,
): Promise<GuardrailResolution> {
  const approverCount = (await tx.members.list(agent.workspaceId)).filter((m) => canApprove(m.role)).length;
  const bindings = await tx.channelBindings.listForWorkspace(agent.workspaceId);
  return resolveGuardrail({
    action: actions,
    context: {
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      spaceId: space.id,
      autonomy: space.autonomy,
      agentName: agent.name,
      spaceName: space.name,
    },
    rules: await tx.guardrails.list(agent.workspaceId),
    canBeApproved: { approverCount, hasBoundChannel: bindings.some((b) => b.spaceId === space.id) },
    // E4: an MCP call's tool narrows the `mcp` rules and decides the read-only default.
    ...(subject === undefined ? {} : { subject }),
  });
}
