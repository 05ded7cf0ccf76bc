import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // P11: the newest message processed per channel (a bound channel or an active thread), so a
  // front end that reconnects fetches what came after it. Not owned by a workspace: cursors
  // are written before a message is resolved to one, like processed_inbound_events.
  `CREATE TABLE platform_channel_cursors (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    platform text NOT NULL,
    channel_id text NOT NULL,
    parent_channel_id text,
    last_message_id text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pk_platform_channel_cursors PRIMARY KEY (id),
    CONSTRAINT ck_platform_channel_cursors_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT uq_platform_channel_cursors_channel UNIQUE (platform, channel_id)
  )`,
  'CREATE INDEX ix_platform_channel_cursors_updated ON platform_channel_cursors (platform, updated_at)',
];

const DOWN = ['DROP TABLE platform_channel_cursors'];

/**
 * P11: back-fill after a Discord reconnect. Discord message ids are snowflakes (numbers in
 * text): the cursor only moves forward, compared as numbers.
 */
export class DiscordBackfill1764892800000 implements MigrationInterface {
  readonly name = 'DiscordBackfill1764892800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
