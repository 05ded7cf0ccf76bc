import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P11, T3: a channel's or thread's back-fill cursor is found by (platform, channel_id) alone,
 * in its upsert and nowhere by its id; every routed top-level message inserts its thread's
 * cursor and moves its channel's (an update that moves `updated_at`, indexed: not HOT), each
 * time with an entry in the id's index too. The key is now (platform, channel_id); the id goes.
 */
export class ChannelCursorKey1796800384000 implements MigrationInterface {
  readonly name = 'ChannelCursorKey1796800384000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_channel_cursors
      DROP CONSTRAINT pk_platform_channel_cursors,
      DROP COLUMN id,
      DROP CONSTRAINT uq_platform_channel_cursors_channel,
      ADD CONSTRAINT pk_platform_channel_cursors PRIMARY KEY (platform, channel_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE platform_channel_cursors
      DROP CONSTRAINT pk_platform_channel_cursors,
      ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
      ADD CONSTRAINT pk_platform_channel_cursors PRIMARY KEY (id),
      ADD CONSTRAINT uq_platform_channel_cursors_channel UNIQUE (platform, channel_id)`);
  }
}
