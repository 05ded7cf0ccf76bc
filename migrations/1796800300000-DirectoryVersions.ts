import type { MigrationInterface, QueryRunner } from 'typeorm';

const CURRENT_WORKSPACE = `nullif(current_setting('summon.workspace_id', true), '')::uuid`;

/**
 * T7: the tables a process may keep in memory (`src/storage/store/repositories/read-through-cache.ts`), each with
 * the column naming its workspace. Only what `summon apply` (and the other directory commands)
 * writes: no statement of a turn or of routing writes these tables.
 */
const CACHED: readonly (readonly [table: string, workspace: string])[] = [
  ['workspaces', 'id'],
  ['platform_bindings', 'workspace_id'],
  ['channel_bindings', 'workspace_id'],
  ['agents', 'workspace_id'],
  ['skills', 'workspace_id'],
  ['access_groups', 'workspace_id'],
];

const UP = [
  // T7: one row per workspace, bumped by every change to its cached tables. Its `xmin` (the
  // transaction that wrote it) is part of what a cache compares, so a bump rolled back never
  // matches a later one with the same number.
  `CREATE TABLE directory_versions (
    workspace_id uuid NOT NULL,
    version bigint NOT NULL DEFAULT 1,
    CONSTRAINT pk_directory_versions PRIMARY KEY (workspace_id),
    CONSTRAINT fk_directory_versions_workspace FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE CASCADE
  )`,
  'INSERT INTO directory_versions (workspace_id) SELECT id FROM workspaces',
  // A2: a tenant reads its own workspace's row only; only the triggers write.
  'GRANT SELECT ON directory_versions TO summon_tenant',
  'ALTER TABLE directory_versions ENABLE ROW LEVEL SECURITY',
  `CREATE POLICY tenant_isolation ON directory_versions USING (workspace_id = ${CURRENT_WORKSPACE}) WITH CHECK (workspace_id = ${CURRENT_WORKSPACE})`,
  // SECURITY DEFINER: a tenant's write of a cached table bumps its row past row-level security
  // and without a grant to write it. A workspace being deleted takes its row with it (the
  // cascade): its rows' deletions bump nothing (a cache then finds no row, and reads again).
  `CREATE FUNCTION summon_directory_bump(workspace uuid) RETURNS void
     LANGUAGE sql SECURITY DEFINER SET search_path FROM CURRENT AS $$
     INSERT INTO directory_versions (workspace_id)
     SELECT id FROM workspaces WHERE id = workspace
     ON CONFLICT (workspace_id) DO UPDATE SET version = directory_versions.version + 1
     $$`,
  // T7: a row changed bumps its workspace (both, when an update moves it to another one).
  `CREATE FUNCTION summon_directory_changed() RETURNS trigger
     LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
     DECLARE
       before uuid := CASE WHEN TG_OP <> 'INSERT' THEN (to_jsonb(OLD) ->> TG_ARGV[0])::uuid END;
       after uuid := CASE WHEN TG_OP <> 'DELETE' THEN (to_jsonb(NEW) ->> TG_ARGV[0])::uuid END;
     BEGIN
       IF before IS NOT NULL THEN PERFORM summon_directory_bump(before); END IF;
       IF after IS NOT NULL AND after IS DISTINCT FROM before THEN PERFORM summon_directory_bump(after); END IF;
       RETURN NULL;
     END
     $$`,
  // T7: a TRUNCATE names no row: every workspace is bumped.
  `CREATE FUNCTION summon_directory_truncated() RETURNS trigger
     LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
     BEGIN
       UPDATE directory_versions SET version = version + 1;
       RETURN NULL;
     END
     $$`,
  ...CACHED.flatMap(([table, workspace]) => [
    `CREATE TRIGGER tg_${table}_directory AFTER INSERT OR UPDATE OR DELETE ON ${table}
       FOR EACH ROW EXECUTE FUNCTION summon_directory_changed('${workspace}')`,
    `CREATE TRIGGER tg_${table}_directory_truncate AFTER TRUNCATE ON ${table}
       FOR EACH STATEMENT EXECUTE FUNCTION summon_directory_truncated()`,
  ]),
];

const DOWN = [
  ...CACHED.flatMap(([table]) => [
    `DROP TRIGGER tg_${table}_directory ON ${table}`,
    `DROP TRIGGER tg_${table}_directory_truncate ON ${table}`,
  ]),
  'DROP FUNCTION summon_directory_truncated()',
  'DROP FUNCTION summon_directory_changed()',
  'DROP FUNCTION summon_directory_bump(uuid)',
  'DROP TABLE directory_versions',
];

/** T7: a version per workspace of what only the directory commands write, for processes' caches. */
export class DirectoryVersions1796800300000 implements MigrationInterface {
  readonly name = 'DirectoryVersions1796800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of UP) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const sql of DOWN) await queryRunner.query(sql);
  }
}
