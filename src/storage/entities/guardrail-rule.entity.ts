import { EntitySchema } from 'typeorm';
import { GUARDRAIL_ACTIONS, GUARDRAIL_DECISIONS, GUARDRAIL_SCOPE_KINDS } from '../../core/model/guardrail';
import type { GuardrailRuleRecord } from '../../core/model/records';
import { createdAt, creationSeq, oneOf, primaryId, text, uuid, workspaceForeignKey } from './columns';

export interface GuardrailRuleRow extends GuardrailRuleRecord {
  seq: string;
  createdAt: Date;
}

/**
 * G1: one rule per (workspace, scope, action, tool); E4: only an `mcp` rule names a tool. `scope_id` names an agent or a space and has no
 * foreign key: it points into one of two tables.
 */
export const GuardrailRuleEntity = new EntitySchema<GuardrailRuleRow>({
  name: 'guardrail_rules',
  columns: {
    id: primaryId('guardrail_rules'),
    seq: creationSeq,
    workspaceId: uuid(),
    scopeKind: text(),
    scopeId: uuid(true),
    action: text(),
    decision: text(),
    tool: text({ nullable: true }),
    createdAt,
  },
  foreignKeys: [workspaceForeignKey('guardrail_rules')],
  checks: [
    { name: 'ck_guardrail_rules_scope_kind', expression: oneOf('scope_kind', GUARDRAIL_SCOPE_KINDS) },
    { name: 'ck_guardrail_rules_scope_id', expression: "(scope_kind = 'workspace') = (scope_id IS NULL)" },
    { name: 'ck_guardrail_rules_action', expression: oneOf('action', GUARDRAIL_ACTIONS) },
    { name: 'ck_guardrail_rules_decision', expression: oneOf('decision', GUARDRAIL_DECISIONS) },
    { name: 'ck_guardrail_rules_tool', expression: "tool IS NULL OR action = 'mcp'" },
  ],
  uniques: [
    // NULLS NOT DISTINCT in the migration: one workspace-wide rule per action (and tool, E4).
    {
      name: 'uq_guardrail_rules_scope_action_tool',
      columns: ['workspaceId', 'scopeKind', 'scopeId', 'action', 'tool'],
    },
  ],
});
