import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // W5: a webhook routine's secret, sealed with SUMMON_SECRET_KEY (AES-256-GCM, bound to the
  // routine): the signature is an HMAC, so the secret itself is needed to check one.
  'ALTER TABLE routines ADD COLUMN webhook_secret text',
  // W5, P6: a webhook's delivery id: a delivery accepted once never fires again.
  'ALTER TABLE routine_firings ADD COLUMN delivery_id text',
  'ALTER TABLE routine_firings ADD CONSTRAINT uq_routine_firings_delivery UNIQUE (routine_id, delivery_id)',
];

const DOWN = [
  'ALTER TABLE routine_firings DROP CONSTRAINT uq_routine_firings_delivery',
  'ALTER TABLE routine_firings DROP COLUMN delivery_id',
  'ALTER TABLE routines DROP COLUMN webhook_secret',
];

/** W5: signed webhooks: each routine's sealed secret and each delivery's id. */
export class RoutineWebhooks1796500220000 implements MigrationInterface {
  readonly name = 'RoutineWebhooks1796500220000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
