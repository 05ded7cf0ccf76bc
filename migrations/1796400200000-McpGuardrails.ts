import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const tenantTable = (table: string) => [
  // A2: the same tenant isolation as every other workspace table.
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO summon_tenant`,
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  `CREATE POLICY tenant_isolation ON ${table} USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const UP = [
  // E4: an `mcp` rule may be narrowed to a tool (`linear__create_issue` or `linear__*`); one
  // rule per (scope, action, tool), a tool-less rule being one value (NULLS NOT DISTINCT).
  'ALTER TABLE guardrail_rules ADD COLUMN tool text',
  `ALTER TABLE guardrail_rules ADD CONSTRAINT ck_guardrail_rules_tool CHECK (tool IS NULL OR action = 'mcp')`,
  'ALTER TABLE guardrail_rules DROP CONSTRAINT uq_guardrail_rules_scope_action',
  `ALTER TABLE guardrail_rules ADD CONSTRAINT uq_guardrail_rules_scope_action_tool
     UNIQUE NULLS NOT DISTINCT (workspace_id, scope_kind, scope_id, action, tool)`,
  // E4: an MCP call's approval is bound to the hash of its server, tool and arguments, and may
  // be given for the whole conversation.
  `ALTER TABLE approvals
     ADD COLUMN subject_hash text,
     ADD COLUMN conversation_grant boolean NOT NULL DEFAULT false,
     ADD CONSTRAINT ck_approvals_conversation_grant CHECK (NOT conversation_grant OR subject_hash IS NOT NULL)`,
  // E4: "approve for this conversation": the same call (same hash) there needs no card again.
  // `approval_id` says which card granted it; no key, so the grant outlives its run's rows.
  `CREATE TABLE mcp_conversation_grants (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    conversation_id uuid NOT NULL,
    subject_hash text NOT NULL,
    approval_id uuid,
    granted_by_member_id uuid,
    granted_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_conversation_grants PRIMARY KEY (id),
    CONSTRAINT fk_mcp_conversation_grants_conversation FOREIGN KEY (conversation_id, workspace_id)
      REFERENCES conversations (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_conversation_grants_granted_by FOREIGN KEY (granted_by_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (granted_by_member_id),
    CONSTRAINT uq_mcp_conversation_grants_subject UNIQUE (conversation_id, subject_hash)
  )`,
  ...tenantTable('mcp_conversation_grants'),
  // E4, O4: every MCP call of a run: how it was decided, by whom, how long it took, how it went.
  `CREATE TABLE mcp_calls (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    run_id uuid NOT NULL,
    server text NOT NULL,
    tool text NOT NULL,
    decision text NOT NULL,
    approved_by_member_id uuid,
    duration_ms integer NOT NULL,
    outcome text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_mcp_calls PRIMARY KEY (id),
    CONSTRAINT fk_mcp_calls_run FOREIGN KEY (run_id, workspace_id)
      REFERENCES runs (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT fk_mcp_calls_approved_by FOREIGN KEY (approved_by_member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE SET NULL (approved_by_member_id),
    CONSTRAINT ck_mcp_calls_decision CHECK (decision IN ('allow', 'ask', 'deny', 'granted')),
    CONSTRAINT ck_mcp_calls_outcome CHECK (outcome IN ('ok', 'error', 'refused')),
    CONSTRAINT ck_mcp_calls_duration CHECK (duration_ms >= 0)
  )`,
  'CREATE INDEX ix_mcp_calls_run ON mcp_calls (run_id, at)',
  'CREATE INDEX ix_mcp_calls_workspace_at ON mcp_calls (workspace_id, at)',
  ...tenantTable('mcp_calls'),
];

const DOWN = [
  'DROP TABLE mcp_calls',
  'DROP TABLE mcp_conversation_grants',
  `ALTER TABLE approvals
     DROP CONSTRAINT ck_approvals_conversation_grant,
     DROP COLUMN conversation_grant,
     DROP COLUMN subject_hash`,
  // A rule narrowed to a tool has no place in the older schema (one rule per scope and action).
  'DELETE FROM guardrail_rules WHERE tool IS NOT NULL',
  'ALTER TABLE guardrail_rules DROP CONSTRAINT uq_guardrail_rules_scope_action_tool',
  `ALTER TABLE guardrail_rules ADD CONSTRAINT uq_guardrail_rules_scope_action
     UNIQUE NULLS NOT DISTINCT (workspace_id, scope_kind, scope_id, action)`,
  'ALTER TABLE guardrail_rules DROP CONSTRAINT ck_guardrail_rules_tool',
  'ALTER TABLE guardrail_rules DROP COLUMN tool',
];

/**
 * E4, O4: the guardrails of MCP calls: rules narrowed to a tool, approvals bound to the call's
 * arguments, grants for a conversation, and the record of every call.
 */
export class McpGuardrails1796400200000 implements MigrationInterface {
  readonly name = 'McpGuardrails1796400200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
