import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * T4: the inbox's indexes for the claim as it is now (one window of the oldest unrouted rows,
 * `claimRun`). The thread and channel indexes served the earlier per-candidate probes and are
 * read by nothing since; every stored event still paid their two entries. The routed-at index
 * only serves the prune (`routed_at < …`): made partial, it no longer offers the planner a way
 * to `routed_at IS NULL`, which, on an inbox whose statistics predate a burst, it took for one
 * row and used to read every unrouted row a claim (EXPLAIN ANALYZE with 600 rows waiting: the
 * whole backlog scanned twice, 2 ms on PostgreSQL and 5 ms on PGlite, a claim); the oldest
 * unrouted rows are read from the pending index, in order.
 */
const UP = [
  'DROP INDEX ix_inbound_inbox_thread',
  'DROP INDEX ix_inbound_inbox_channel',
  'DROP INDEX ix_inbound_inbox_routed',
  'CREATE INDEX ix_inbound_inbox_routed ON inbound_inbox (routed_at) WHERE routed_at IS NOT NULL',
];

const DOWN = [
  'DROP INDEX ix_inbound_inbox_routed',
  'CREATE INDEX ix_inbound_inbox_routed ON inbound_inbox (routed_at)',
  `CREATE INDEX ix_inbound_inbox_channel ON inbound_inbox (platform, channel_key, seq)
     WHERE routed_at IS NULL AND channel_key IS NOT NULL`,
  'CREATE INDEX ix_inbound_inbox_thread ON inbound_inbox (platform, thread_key, seq) WHERE routed_at IS NULL',
];

export class InboxClaimIndexes1796300000000 implements MigrationInterface {
  readonly name = 'InboxClaimIndexes1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
