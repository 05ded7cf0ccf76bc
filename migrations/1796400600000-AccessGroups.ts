import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

const UP = [
  // P24: the workspace file's `access`: a platform group and the role it gives, in the file's
  // order. `group_id` is NULL only for Slack's `everyone`; owners are given only by an entry.
  `CREATE TABLE access_groups (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    workspace_id uuid NOT NULL,
    platform text NOT NULL,
    kind text NOT NULL,
    group_id text,
    role text NOT NULL,
    position integer NOT NULL,
    CONSTRAINT pk_access_groups PRIMARY KEY (id),
    CONSTRAINT fk_access_groups_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE,
    CONSTRAINT uq_access_groups_group UNIQUE NULLS NOT DISTINCT (workspace_id, platform, kind, group_id),
    CONSTRAINT ck_access_groups_group CHECK (
      (platform = 'discord' AND kind = 'role' AND group_id ~ '^[0-9]{17,20}$')
      OR (platform = 'slack' AND kind = 'usergroup' AND group_id ~ '^S[A-Z0-9]{8,}$')
      OR (platform = 'slack' AND kind = 'everyone' AND group_id IS NULL)),
    CONSTRAINT ck_access_groups_role CHECK (role IN ('viewer', 'member', 'approver', 'admin'))
  )`,
  // A2: the same tenant isolation as every other workspace table.
  'GRANT SELECT, INSERT, UPDATE, DELETE ON access_groups TO summon_tenant',
  'ALTER TABLE access_groups ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON access_groups USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
];

const DOWN = ['DROP TABLE access_groups'];

/** P24: the platform groups (Discord server roles, Slack user groups) that admit people. */
export class AccessGroups1796400600000 implements MigrationInterface {
  readonly name = 'AccessGroups1796400600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
