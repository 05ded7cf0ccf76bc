import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * P6, T3: an event's record is read only by its key (the inbox's write before the ack, a
 * routing's own record, taking a dropped one back), which `uq_processed_inbound_events_event`
 * serves; records are kept, never pruned by time. `ix_processed_inbound_events_received` served
 * no read, yet every routed event wrote an entry into it.
 */
export class ProcessedEventsReceivedIndexDropped1796800382000 implements MigrationInterface {
  readonly name = 'ProcessedEventsReceivedIndexDropped1796800382000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX ix_processed_inbound_events_received');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX ix_processed_inbound_events_received ON processed_inbound_events (received_at)',
    );
  }
}
