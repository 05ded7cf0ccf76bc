import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foreign keys that reference `members`, dropped and made again around a change of the key
 * they reference (their definitions read from the catalog, so each comes back as it was).
 */
const REPOINT = (change: string): string => `DO $$
DECLARE
  fk record;
  kept text[] := '{}';
BEGIN
  FOR fk IN SELECT conrelid::regclass AS tab, conname, pg_get_constraintdef(oid) AS def
            FROM pg_constraint WHERE confrelid = 'members'::regclass AND contype = 'f' LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tab, fk.conname);
    kept := kept || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tab, fk.conname, fk.def);
  END LOOP;
  ${change}
  FOR i IN 1 .. coalesce(array_length(kept, 1), 0) LOOP EXECUTE kept[i]; END LOOP;
END $$`;

/**
 * P24: a member row had two unique indexes led by its id: the primary key (id) and (id,
 * workspace_id), which the tenant-scoped foreign keys reference (A2). The key is now (id,
 * workspace_id) alone: every look-up by id reads it by its first column, the foreign keys
 * reference it, and a new member (an admitted person's first message) writes one index entry
 * fewer. Ids stay unique in practice (random, or derived from the workspace and the account).
 */
const UP = [
  REPOINT(`ALTER TABLE members DROP CONSTRAINT pk_members;
  ALTER TABLE members DROP CONSTRAINT uq_members_id_workspace;
  ALTER TABLE members ADD CONSTRAINT pk_members PRIMARY KEY (id, workspace_id);`),
];

const DOWN = [
  REPOINT(`ALTER TABLE members DROP CONSTRAINT pk_members;
  ALTER TABLE members ADD CONSTRAINT pk_members PRIMARY KEY (id);
  ALTER TABLE members ADD CONSTRAINT uq_members_id_workspace UNIQUE (id, workspace_id);`),
];

export class MemberKeyWithWorkspace1796800320000 implements MigrationInterface {
  readonly name = 'MemberKeyWithWorkspace1796800320000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
