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
      // G1: one rule per (scope, action); the constraint treats a null scope (the workspace) as one value.
      const [inserted] = await manager.query<{ id: string }[]>(
        `INSERT INTO guardrail_rules (workspace_id, scope_kind, scope_id, action, decision)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT uq_guardrail_rules_scope_action DO UPDATE SET decision = EXCLUDED.decision
         RETURNING id`,
        [workspaceId, rule.scopeKind, rule.scopeId, rule.action, rule.decision],
      );
      return toGuardrailRuleRecord(await rows.findOneByOrFail({ id: inserted?.id ?? '' }));
    },
  };
};
