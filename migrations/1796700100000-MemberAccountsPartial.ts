import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P8, P24: a member's linked accounts stay unique per workspace, but only the accounts a member
 * has are indexed: a person admitted by a Discord role links no Slack account and no GitHub
 * login, so their first message writes two index entries fewer (and a community of thousands
 * keeps no index of their empty columns). Every look-up names an account (`= $n`), which the
 * partial indexes answer; their names are the constraints' (a violation reads the same).
 */
const UP = [
  'ALTER TABLE members DROP CONSTRAINT uq_members_slack_user',
  'ALTER TABLE members DROP CONSTRAINT uq_members_discord_user',
  'DROP INDEX uq_members_github_login',
  'CREATE UNIQUE INDEX uq_members_slack_user ON members (workspace_id, slack_user_id) WHERE slack_user_id IS NOT NULL',
  'CREATE UNIQUE INDEX uq_members_discord_user ON members (workspace_id, discord_user_id) WHERE discord_user_id IS NOT NULL',
  'CREATE UNIQUE INDEX uq_members_github_login ON members (workspace_id, lower(github_login)) WHERE github_login IS NOT NULL',
];

const DOWN = [
  'DROP INDEX uq_members_slack_user',
  'DROP INDEX uq_members_discord_user',
  'DROP INDEX uq_members_github_login',
  'ALTER TABLE members ADD CONSTRAINT uq_members_slack_user UNIQUE (workspace_id, slack_user_id)',
  'ALTER TABLE members ADD CONSTRAINT uq_members_discord_user UNIQUE (workspace_id, discord_user_id)',
  'CREATE UNIQUE INDEX uq_members_github_login ON members (workspace_id, lower(github_login))',
];

export class MemberAccountsPartial1796700100000 implements MigrationInterface {
  readonly name = 'MemberAccountsPartial1796700100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
