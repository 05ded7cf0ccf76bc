import type { MigrationInterface, QueryRunner } from 'typeorm';

const UP = [
  // T3: a write sent with the transaction's next message (its COMMIT at the latest) still fails
  // the transaction when its row is not there (or row-level security hides it, A2): the
  // statement calls this with whether its row was there (`present`: plpgsql has its own FOUND),
  // and the store reads SQLSTATE P0002 as its NotFoundError, with this message.
  `CREATE FUNCTION summon_row_required(present boolean, message text) RETURNS void
     LANGUAGE plpgsql AS $$
     BEGIN
       IF NOT present THEN
         RAISE EXCEPTION USING ERRCODE = 'no_data_found', MESSAGE = message;
       END IF;
     END
     $$`,
];

const DOWN = ['DROP FUNCTION summon_row_required(boolean, text)'];

/** T3: a deferred write's missing row fails its transaction on the server, before the COMMIT runs. */
export class RowRequired1796212116145 implements MigrationInterface {
  readonly name = 'RowRequired1796212116145';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
