import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P7, T3: a reply is inserted, then its platform ref written once the platform answers (in no
 * index since `MessageRefUnindexed`: HOT when its page has room for the new version). Under load
 * the messages stored in between fill the page first (70 % of those writes HOT at 200 mentions a
 * second): new pages of `messages` keep a tenth free for them.
 */
export class MessagesFillfactor1796800385000 implements MigrationInterface {
  readonly name = 'MessagesFillfactor1796800385000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE messages SET (fillfactor = 90)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE messages RESET (fillfactor)');
  }
}
