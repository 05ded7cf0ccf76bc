import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // T4: every inbound platform event a front end accepts is stored here first, and acknowledged
  // once this one row is written; routing (P8, M1–M12, P3) follows from these rows. The key is
  // P6's de-duplication key, (platform, event_id) as in processed_inbound_events. Not owned by
  // a workspace: it is written before the event is resolved to one, like that table.
  `CREATE TABLE inbound_inbox (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    seq bigserial NOT NULL,
    platform text NOT NULL,
    event_id text NOT NULL,
    thread_key text NOT NULL,
    channel_key text,
    payload jsonb NOT NULL DEFAULT '{}',
    received_at timestamptz NOT NULL DEFAULT now(),
    attempts integer NOT NULL DEFAULT 0,
    available_at timestamptz NOT NULL DEFAULT now(),
    routed_at timestamptz,
    outcome text,
    last_error text,
    CONSTRAINT pk_inbound_inbox PRIMARY KEY (id),
    CONSTRAINT ck_inbound_inbox_platform CHECK (platform IN ('slack', 'discord', 'terminal')),
    CONSTRAINT ck_inbound_inbox_outcome CHECK (outcome IN ('accepted', 'duplicate', 'refused', 'dropped', 'failed')),
    CONSTRAINT ck_inbound_inbox_routed CHECK ((routed_at IS NULL) = (outcome IS NULL)),
    CONSTRAINT ck_inbound_inbox_attempts CHECK (attempts >= 0),
    CONSTRAINT uq_inbound_inbox_event UNIQUE (platform, event_id)
  )`,
  // The rows still to route, oldest first; and the head of each thread (per-thread order).
  'CREATE INDEX ix_inbound_inbox_pending ON inbound_inbox (seq) WHERE routed_at IS NULL',
  'CREATE INDEX ix_inbound_inbox_thread ON inbound_inbox (platform, thread_key, seq) WHERE routed_at IS NULL',
  `CREATE INDEX ix_inbound_inbox_channel ON inbound_inbox (platform, channel_key, seq)
     WHERE routed_at IS NULL AND channel_key IS NOT NULL`,
  'CREATE INDEX ix_inbound_inbox_routed ON inbound_inbox (routed_at)',
];

const DOWN = ['DROP TABLE inbound_inbox'];

/** T4: the inbox the front ends write once per inbound event before they acknowledge it. */
export class InboundInbox1796120943732 implements MigrationInterface {
  readonly name = 'InboundInbox1796120943732';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
