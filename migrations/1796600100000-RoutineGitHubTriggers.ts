import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // W1: a routine may fire on a GitHub delivery (P19's receiver); its firings are keyed by the
  // delivery's id like a webhook's (uq_routine_firings_delivery).
  'ALTER TABLE routines DROP CONSTRAINT ck_routines_trigger',
  `ALTER TABLE routines ADD CONSTRAINT ck_routines_trigger
     CHECK (trigger ->> 'kind' IN ('schedule', 'at', 'webhook', 'github'))`,
];

const DOWN = [
  "DELETE FROM routines WHERE trigger ->> 'kind' = 'github'",
  'ALTER TABLE routines DROP CONSTRAINT ck_routines_trigger',
  `ALTER TABLE routines ADD CONSTRAINT ck_routines_trigger
     CHECK (trigger ->> 'kind' IN ('schedule', 'at', 'webhook'))`,
];

/** W1: `github` triggers. */
export class RoutineGitHubTriggers1796600100000 implements MigrationInterface {
  readonly name = 'RoutineGitHubTriggers1796600100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
