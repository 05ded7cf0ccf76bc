import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // P24: a member admitted by a platform group (Discord server role, Slack user group) names
  // the group (its key, e.g. `discord:role:<id>`, and its name when the platform gave one);
  // NULL for an explicit entry (the workspace file, an invite), which always wins.
  'ALTER TABLE members ADD COLUMN access_via text',
  'ALTER TABLE members ADD COLUMN access_via_name text',
];

const DOWN = [
  'ALTER TABLE members DROP COLUMN access_via_name',
  'ALTER TABLE members DROP COLUMN access_via',
];

/** P24: members admitted by a platform group, marked with the group that admitted them. */
export class MemberAccessVia1796500100000 implements MigrationInterface {
  readonly name = 'MemberAccessVia1796500100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
