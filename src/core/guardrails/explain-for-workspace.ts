import { NotFoundError, ValidationError } from '../errors';
import { GUARDRAIL_ACTIONS, type GuardrailAction } from '../model/guardrail';
import { canApprove } from '../model/member';
import type { Store } from '../ports/store';
import type { GuardrailResolution } from './resolution';
import { resolveGuardrail } from './resolve-guardrail';

export interface ExplainRequest {
  workspace: string;
  agent: string;
  space: string | null;
  action: string;
}

/**
 * `summon guardrails explain` (G2): loads the workspace's rules, the agent, the space and who
 * could approve, and resolves the action exactly as a run would.
 */
export async function explainGuardrail(store: Store, request: ExplainRequest): Promise<GuardrailResolution> {
  if (!(GUARDRAIL_ACTIONS as readonly string[]).includes(request.action)) {
    throw new ValidationError(
      `unknown action "${request.action}"; use one of ${GUARDRAIL_ACTIONS.join(', ')}`,
    );
  }
  const action = request.action as GuardrailAction;
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(request.workspace));
  if (workspace === null) throw new NotFoundError(`no workspace "${request.workspace}"`);

  return store.inWorkspace(workspace.id, async (tx) => {
    const agent = await tx.agents.findByName(workspace.id, request.agent);
    if (agent === null)
      throw new NotFoundError(`no agent "${request.agent}" in workspace "${workspace.slug}"`);
    const space = request.space === null ? null : await tx.spaces.findByName(workspace.id, request.space);
    if (request.space !== null && space === null) {
      throw new NotFoundError(`no space "${request.space}" in workspace "${workspace.slug}"`);
    }
    const approverCount = (await tx.members.list(workspace.id)).filter((m) => canApprove(m.role)).length;
    const bindings = await tx.channelBindings.listForWorkspace(workspace.id);
    const hasBoundChannel =
      space === null ? bindings.length > 0 : bindings.some((b) => b.spaceId === space.id);
    return resolveGuardrail({
      action,
      context: {
        workspaceId: workspace.id,
        agentId: agent.id,
        spaceId: space?.id ?? null,
        autonomy: space?.autonomy ?? 'actWithApproval',
        agentName: agent.name,
        ...(space ? { spaceName: space.name } : {}),
      },
      rules: await tx.guardrails.list(workspace.id),
      canBeApproved: { approverCount, hasBoundChannel },
    });
  });
}
