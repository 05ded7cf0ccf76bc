import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Slack front end: P7's outbox delivers the calls of one lane (a thread) one at a time, in
 * the order they were stored, and resumes them per platform after a restart. P8's member
 * invites: one-time codes, stored hashed, that bind a Slack or Discord account to a member.
 */
const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  `ALTER TABLE outbox ADD COLUMN lane text NOT NULL DEFAULT ''`,
  'CREATE INDEX ix_outbox_lane ON outbox (platform, status, seq)',
  // P8: `summon members invite` issues a one-time code; only its hash is kept.
  `CREATE TABLE member_invites (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    workspace_id uuid NOT NULL,
    member_id uuid NOT NULL,
    code_hash text NOT NULL,
    expires_at timestamptz NOT NULL,
    redeemed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_member_invites PRIMARY KEY (id),
    CONSTRAINT fk_member_invites_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT fk_member_invites_member FOREIGN KEY (member_id, workspace_id)
      REFERENCES members (id, workspace_id) ON DELETE CASCADE,
    CONSTRAINT uq_member_invites_code UNIQUE (code_hash)
  )`,
  'GRANT SELECT, INSERT, UPDATE, DELETE ON member_invites TO summon_tenant',
  'ALTER TABLE member_invites ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON member_invites USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
  'GRANT USAGE ON SEQUENCE member_invites_seq_seq TO summon_tenant',
];

const DOWN = [
  'DROP TABLE member_invites',
  'DROP INDEX ix_outbox_lane',
  'ALTER TABLE outbox DROP COLUMN lane',
];

export class SlackFrontEnd1764720000000 implements MigrationInterface {
  name = 'SlackFrontEnd1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of UP) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of DOWN) await queryRunner.query(statement);
  }
}
