import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P24: no read walks a workspace's members in the order they were made any more (the message
 * path reads the members it names, by account, nickname or id; `members list` and the workspace
 * file sort what they read), so `ix_members_created` only cost each new member an entry at its
 * right edge, where every first message of a burst of admitted people wrote at once.
 */
export class MemberCreatedIndexDropped1796700101000 implements MigrationInterface {
  readonly name = 'MemberCreatedIndexDropped1796700101000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_members_created');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX ix_members_created ON members (workspace_id, created_at, seq)');
  }
}
