import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * M10: members found by the start of their nickname, case ignored: routing reads only the
 * members a message's mentions may reach (a nickname starting with a typed token).
 * The unique nickname index is made with `text_pattern_ops`, which orders byte by byte whatever
 * the database's collation, so a prefix is one range of it (`~>=~`, `~<~`); equality, for which
 * it was made, reads it as before.
 */
const UP = [
  // The same uniqueness (M10: case ignored), now also ordered byte by byte: one index, not two.
  'DROP INDEX uq_members_nickname',
  'CREATE UNIQUE INDEX uq_members_nickname ON members (workspace_id, lower(nickname) text_pattern_ops)',
];

const DOWN = [
  'DROP INDEX uq_members_nickname',
  'CREATE UNIQUE INDEX uq_members_nickname ON members (workspace_id, lower(nickname))',
];

export class MemberNicknamePrefix1796600500000 implements MigrationInterface {
  readonly name = 'MemberNicknamePrefix1796600500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
