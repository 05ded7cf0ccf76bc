import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * T3: a turn writes its reply's id on its run (`reply_message_id`, in no index): HOT when the
 * run's page has room for the new version. Under load the runs queued in between fill the page
 * first: new pages of `runs` keep a tenth free for it (and for a long turn's `last_event_at`).
 */
export class RunsFillfactor1796800390000 implements MigrationInterface {
  readonly name = 'RunsFillfactor1796800390000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE runs SET (fillfactor = 90)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE runs RESET (fillfactor)');
  }
}
