import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [`ALTER TABLE workspaces ADD COLUMN allowed_domains text[] NOT NULL DEFAULT '{}'`];

const DOWN = ['ALTER TABLE workspaces DROP COLUMN allowed_domains'];

/**
 * X2: the hosts a run's egress proxy may reach (`sandbox.allowedDomains` in the workspace
 * file), exact names or `*.` wildcards, validated by the workspace schema. The table's grants
 * (SELECT, UPDATE for the tenant role) cover the new column.
 */
export class SandboxAllowedDomains1765065600000 implements MigrationInterface {
  readonly name = 'SandboxAllowedDomains1765065600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
