import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * M10, P24: members found by the start of their nickname, case ignored: routing reads only the
 * members a message's mentions may reach (a nickname starting with a typed token), and a person
 * admitted by a group is given the first free nickname among those starting with their name.
 * `text_pattern_ops` orders byte by byte whatever the database's collation, so a prefix is one
 * range of the index (`~>=~`, `~<~`).
 */
const UP = [
  'CREATE INDEX ix_members_nickname_prefix ON members (workspace_id, lower(nickname) text_pattern_ops)',
];

const DOWN = ['DROP INDEX ix_members_nickname_prefix'];

export class MemberNicknamePrefix1796600500000 implements MigrationInterface {
  readonly name = 'MemberNicknamePrefix1796600500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
