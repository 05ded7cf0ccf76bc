import { resolveGuardrail } from '../guardrails';
import type { GuardrailResolution } from '../guardrails/resolution';
import type { GuardrailAction } from '../model/guardrail';
import { canApprove } from '../model/member';
import type { RunRecord } from '../model/records';
import type { Store } from '../ports/store';

/**
 * G2, G2a, G2b at the moment of the push: the run's workspace rules for its agent and the
 * space of its conversation, the space's autonomy dial, and whether anyone could answer an ask
 * (an approver in the workspace and a channel bound to the space).
 */
export async function resolveRunAction(
  store: Store,
  run: RunRecord,
  action: GuardrailAction,
): Promise<GuardrailResolution> {
  return store.inWorkspace(run.workspaceId, async (tx) => {
    const conversation = await tx.conversations.findById(run.conversationId);
    const spaces = await tx.spaces.list(run.workspaceId);
    const space = spaces.find((s) => s.id === conversation?.spaceId) ?? null;
    const agent = (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId);
    const approverCount = (await tx.members.list(run.workspaceId)).filter((m) => canApprove(m.role)).length;
    const bindings = await tx.channelBindings.listForWorkspace(run.workspaceId);
    const hasBoundChannel =
      space === null ? false : bindings.some((b) => b.spaceId === space.id) && conversation?.threadId != null;
    return resolveGuardrail({
      action,
      context: {
        workspaceId: run.workspaceId,
        agentId: run.agentId,
        spaceId: space?.id ?? null,
        autonomy: space?.autonomy ?? 'actWithApproval',
        ...(agent ? { agentName: agent.name } : {}),
        ...(space ? { spaceName: space.name } : {}),
      },
      rules: await tx.guardrails.list(run.workspaceId),
      canBeApproved: { approverCount, hasBoundChannel },
    });
  });
}
