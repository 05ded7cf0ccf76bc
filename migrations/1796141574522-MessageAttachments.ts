import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P13: the files attached to a person's message, as the platform described them (name, size,
 * type, download link), recorded with the message when it is routed; the turn fetches them at
 * its start. The table's grants and row-level security policies cover the new column.
 */
export class MessageAttachments1796141574522 implements MigrationInterface {
  readonly name = 'MessageAttachments1796141574522';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE messages ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE messages DROP COLUMN attachments');
  }
}
