import type { EntityManager } from 'typeorm';
import type { GuardrailRuleRecord } from '../../../core/model/records';
import type { GuardrailRuleRepository } from '../../../core/ports/store';
import { GuardrailRuleEntity, type GuardrailRuleRow } from '../../entities/guardrail-rule.entity';
import { isUuid } from '../ids';

export const toGuardrailRuleRecord = (row: GuardrailRuleRow): GuardrailRuleRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  scopeKind: row.scopeKind,
  scopeId: row.scopeId,
  action: row.action,
  decision: row.decision,
  tool: row.tool ?? null,
});

export const guardrailRuleRepository = (manager: EntityManager): GuardrailRuleRepository => {
  const rows = manager.getRepository(GuardrailRuleEntity);
  return {
    async list(workspaceId) {
      if (!isUuid(workspaceId)) return [];
      const found = await rows.find({ where: { workspaceId }, order: { createdAt: 'ASC', seq: 'ASC' } });
      return found.map(toGuardrailRuleRecord);
    },
    async upsert(workspaceId, rule) {
      // G1, E4: one rule per (scope, action, tool); the constraint treats a null scope (the
      // workspace) and a null tool (every tool) as one value each.
      const [inserted] = await manager.query<{ id: string }[]>(
        `INSERT INTO guardrail_rules (workspace_id, scope_kind, scope_id, action, decision, tool)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT ON CONSTRAINT uq_guardrail_rules_scope_action_tool DO UPDATE SET decision = EXCLUDED.decision
         RETURNING id`,
        [workspaceId, rule.scopeKind, rule.scopeId, rule.action, rule.decision, rule.tool ?? null],
      );
      return toGuardrailRuleRecord(await rows.findOneByOrFail({ id: inserted?.id ?? '' }));
    },
  };
};
