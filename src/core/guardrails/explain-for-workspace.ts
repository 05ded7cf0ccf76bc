import { NotFoundError, ValidationError } from '../errors';
import { GUARDRAIL_ACTIONS, type GuardrailAction } from '../model/guardrail';
import { canApprove } from '../model/member';
import type { Store } from '../ports/store';
import { MCP_TOOL_RULE_PATTERN, type McpRuleSubject } from './mcp-tool-rule';
import type { GuardrailResolution } from './resolution';
import { resolveGuardrail } from './resolve-guardrail';

export interface ExplainRequest {
  workspace: string;
  agent: string;
  space: string | null;
  action: string;
  /** E4: with `mcp`, the tool the call would be to (`<server>__<tool>`). */
  tool?: string | null;
}

/** E4: `--tool` names one MCP tool and goes with `--action mcp` only. */
function explainedTool(request: ExplainRequest): McpRuleSubject | undefined {
  const tool = request.tool ?? null;
  if (tool === null) return undefined;
  if (request.action !== 'mcp') {
    throw new ValidationError(
      `--tool names an MCP tool, so it goes only with --action mcp, not with "${request.action}".`,
    );
  }
  if (!MCP_TOOL_RULE_PATTERN.test(tool) || tool.endsWith('__*')) {
    throw new ValidationError(
      `--tool "${tool}" is not one MCP tool: write it as the model sees it, "<server>__<tool>" (for example "linear__create_issue").`,
    );
  }
  return { tool };
}

/**
 * `summon guardrails explain` (G2, E4): loads the workspace's rules, the agent, the space and who
 * could approve, and resolves the action exactly as a run would.
 */
export async function explainGuardrail(store: Store, request: ExplainRequest): Promise<GuardrailResolution> {
  if (!(GUARDRAIL_ACTIONS as readonly string[]).includes(request.action)) {
    throw new ValidationError(
      `unknown action "${request.action}"; use one of ${GUARDRAIL_ACTIONS.join(', ')}`,
    );
  }
  const action = request.action as GuardrailAction;
  const subject = explainedTool(request);
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
      ...(subject === undefined ? {} : { subject }),
    });
  });
}
