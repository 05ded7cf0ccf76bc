import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables that name a platform, each with its CHECK constraint. */
const PLATFORM_CHECKS: readonly [table: string, constraint: string][] = [
  ['channel_bindings', 'ck_channel_bindings_platform'],
  ['conversations', 'ck_conversations_platform'],
  ['processed_inbound_events', 'ck_processed_inbound_events_platform'],
  ['outbox', 'ck_outbox_platform'],
  ['platform_channel_cursors', 'ck_platform_channel_cursors_platform'],
  ['inbound_inbox', 'ck_inbound_inbox_platform'],
];

const checks = (platforms: string) =>
  PLATFORM_CHECKS.flatMap(([table, constraint]) => [
    `ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`,
    `ALTER TABLE ${table} ADD CONSTRAINT ${constraint} CHECK (platform IN (${platforms}))`,
  ]);

const UP = [
  // P19: GitHub is a platform: a repository is a channel, an issue or a pull request a thread.
  ...checks(`'slack', 'discord', 'terminal', 'github'`),
  // P20: a member's GitHub login; logins are case-insensitive, one member per login.
  'ALTER TABLE members ADD COLUMN github_login text',
  'CREATE UNIQUE INDEX uq_members_github_login ON members (workspace_id, lower(github_login))',
];

const DOWN = [
  'DROP INDEX uq_members_github_login',
  'ALTER TABLE members DROP COLUMN github_login',
  ...PLATFORM_CHECKS.map(([table]) => `DELETE FROM ${table} WHERE platform = 'github'`),
  ...checks(`'slack', 'discord', 'terminal'`),
];

/** P19, P20: GitHub as a platform, and members' GitHub logins. */
export class GitHubFrontEnd1796500500000 implements MigrationInterface {
  readonly name = 'GitHubFrontEnd1796500500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
