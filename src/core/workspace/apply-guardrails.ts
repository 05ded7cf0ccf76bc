import { NotFoundError } from '../errors';
import type { GuardrailScopeKind } from '../model/guardrail';
import type { StoreTx } from '../ports/store';
import type { ChangeReport } from './change-report';
import type { GuardrailEntry } from './workspace-file-schema';

/** G1: one rule per (scope, action, tool: E4); applying a rule again replaces its decision. */
export async function applyGuardrails(
  tx: StoreTx,
  workspaceId: string,
  entries: readonly GuardrailEntry[],
  report: ChangeReport,
): Promise<void> {
  const current = await tx.guardrails.list(workspaceId);
  for (const entry of entries) {
    const scope = await resolveScope(tx, workspaceId, entry.scope);
    const tool = entry.tool ?? null;
    const existing = current.find(
      (r) =>
        r.scopeKind === scope.kind && r.scopeId === scope.id && r.action === entry.action && r.tool === tool,
    );
    if (existing?.decision === entry.decision) continue;
    await tx.guardrails.upsert(workspaceId, {
      scopeKind: scope.kind,
      scopeId: scope.id,
      action: entry.action,
      decision: entry.decision,
      tool,
    });
    const what = tool === null ? entry.action : `${entry.action} ${tool}`;
    (existing ? report.updated : report.created).push(`guardrail ${entry.scope} ${what}`);
  }
}

async function resolveScope(
  tx: StoreTx,
  workspaceId: string,
  scope: string,
): Promise<{ kind: GuardrailScopeKind; id: string | null }> {
  const [kind, name = ''] = scope.split(':');
  if (kind === 'workspace') return { kind, id: null };
  const target =
    kind === 'agent'
      ? await tx.agents.findByName(workspaceId, name)
      : await tx.spaces.findByName(workspaceId, name);
  if (target === null) throw new NotFoundError(`guardrail scope "${scope}" names nothing in this workspace`);
  return { kind: kind === 'agent' ? 'agent' : 'space', id: target.id };
}
