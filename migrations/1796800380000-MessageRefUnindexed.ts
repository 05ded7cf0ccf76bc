import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P7, T3: a reply is stored before it is posted, and its platform ref written once the platform
 * answers (the finish's commit). `uq_messages_platform_ref` made that write a new row version
 * with an entry in every index of `messages` (an indexed column changed: never HOT), and gave
 * every message inserted an entry of its own; no read looks a message up by its ref. A person's
 * message is recorded once by its event's key (P6: `processed_inbound_events`, unique, in
 * routing's transaction, with the inbox's key before it), and the refs of the bot's own posts are
 * the platform's, one per post: the constraint guarded nothing the key does not.
 */
export class MessageRefUnindexed1796800380000 implements MigrationInterface {
  readonly name = 'MessageRefUnindexed1796800380000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE messages DROP CONSTRAINT uq_messages_platform_ref');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE messages ADD CONSTRAINT uq_messages_platform_ref UNIQUE (conversation_id, platform_message_ref)',
    );
  }
}
