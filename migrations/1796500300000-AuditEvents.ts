import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

const KINDS = [
  'approval_asked',
  'approval_decided',
  'push_decided',
  'push_finished',
  'tool_guarded',
  'mcp_called',
  'budget_stopped',
  'turn_stopped',
  'member_invited',
  'member_linked',
  'member_added',
  'member_role_changed',
  'relay_paired',
  'relay_revoked',
  'skill_installed',
  'skill_refused',
  'skill_removed',
  'workspace_applied',
  'routine_changed',
  'console_signed_in',
];
const ACTOR_KINDS = ['member', 'agent', 'operator', 'relay', 'system'];
const PLACES = ['slack', 'discord', 'terminal', 'console', 'github', 'cli', 'git', 'mcp', 'relay', 'system'];

const UP = [
  // O4: the audit log. The actor and subject are kept as words and ids, never keys: a row says
  // what was true when it was written, and outlives the member, run or agent it names unchanged.
  `CREATE TABLE audit_events (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigint GENERATED ALWAYS AS IDENTITY,
    workspace_id uuid NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    kind text NOT NULL,
    actor_kind text NOT NULL,
    actor_id text,
    actor_name text NOT NULL,
    subject text NOT NULL,
    place text NOT NULL,
    detail jsonb NOT NULL DEFAULT '{}'::jsonb,
    CONSTRAINT pk_audit_events PRIMARY KEY (id),
    CONSTRAINT fk_audit_events_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT ck_audit_events_kind CHECK (kind IN (${list(KINDS)})),
    CONSTRAINT ck_audit_events_actor_kind CHECK (actor_kind IN (${list(ACTOR_KINDS)})),
    CONSTRAINT ck_audit_events_place CHECK (place IN (${list(PLACES)})),
    CONSTRAINT ck_audit_events_detail CHECK (jsonb_typeof(detail) = 'object')
  )`,
  // O4: the export's keyset (time, then the order of writing: the events of one transaction
  // share its time) and the retention job's range.
  'CREATE INDEX ix_audit_events_workspace_at ON audit_events (workspace_id, at, seq)',
  'CREATE INDEX ix_audit_events_at ON audit_events (at)',
  // A2, O4: a tenant session reads and appends its own workspace's rows, and has no UPDATE or
  // DELETE privilege at all: the database, not only the code, keeps the log append-only.
  'GRANT SELECT, INSERT ON audit_events TO summon_tenant',
  'GRANT USAGE ON SEQUENCE audit_events_seq_seq TO summon_tenant',
  'ALTER TABLE audit_events ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON audit_events USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
  // O4: the system context owns the table (privileges do not bind an owner), so a trigger
  // refuses UPDATE and TRUNCATE always, and DELETE but for the two ways a row may go: the
  // retention job (which says so for its transaction: `summon.audit_retention`) and its
  // workspace's own deletion (the cascade, once the workspace row is gone).
  `CREATE FUNCTION summon_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' THEN
      IF current_setting('summon.audit_retention', true) = 'on' THEN
        RETURN OLD;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM workspaces WHERE id = OLD.workspace_id) THEN
        RETURN OLD;
      END IF;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only: % refused (only the retention job deletes)', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END
  $$`,
  `CREATE TRIGGER tg_audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
     FOR EACH ROW EXECUTE FUNCTION summon_audit_append_only()`,
  `CREATE TRIGGER tg_audit_events_no_truncate BEFORE TRUNCATE ON audit_events
     FOR EACH STATEMENT EXECUTE FUNCTION summon_audit_append_only()`,
];

const DOWN = ['DROP TABLE audit_events', 'DROP FUNCTION summon_audit_append_only()'];

/** O4: the audit log: append-only, per workspace, under row-level security (A2). */
export class AuditEvents1796500300000 implements MigrationInterface {
  readonly name = 'AuditEvents1796500300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
