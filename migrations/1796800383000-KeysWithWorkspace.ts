import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['conversations', 'messages', 'runs'];

/**
 * The foreign keys that reference `TABLES`, dropped and made again around a change of the keys
 * they reference (their definitions read from the catalog, so each comes back as it was, but
 * for the ones `rewrite` names).
 */
const repoint = (change: string, rewrite: Record<string, string>): string => `DO $$
DECLARE
  fk record;
  kept text[] := '{}';
  rewritten jsonb := '${JSON.stringify(rewrite)}';
BEGIN
  FOR fk IN SELECT conrelid::regclass AS tab, conname, pg_get_constraintdef(oid) AS def
            FROM pg_constraint
            WHERE confrelid = ANY (ARRAY[${TABLES.map((t) => `'${t}'::regclass`).join(', ')}]) AND contype = 'f' LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tab, fk.conname);
    kept := kept || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tab, fk.conname,
                           coalesce(rewritten ->> fk.conname, fk.def));
  END LOOP;
  ${change}
  FOR i IN 1 .. coalesce(array_length(kept, 1), 0) LOOP EXECUTE kept[i]; END LOOP;
END $$`;

/** The five keys that named a run or a conversation by its id alone, as they were. */
const BY_ID = {
  fk_conversation_pull_requests_conversation:
    'FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON DELETE CASCADE',
  fk_conversation_pull_requests_run: 'FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE SET NULL',
  fk_pull_request_failure_wakes_run: 'FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE SET NULL',
  fk_routine_firings_conversation:
    'FOREIGN KEY (conversation_id) REFERENCES conversations(id) ON DELETE SET NULL',
  fk_routine_firings_run: 'FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE SET NULL',
};

/** The same, naming the row with its workspace (A2: one of the same workspace). */
const BY_KEY = {
  fk_conversation_pull_requests_conversation:
    'FOREIGN KEY (conversation_id, workspace_id) REFERENCES conversations(id, workspace_id) ON DELETE CASCADE',
  fk_conversation_pull_requests_run:
    'FOREIGN KEY (run_id, workspace_id) REFERENCES runs(id, workspace_id) ON DELETE SET NULL (run_id)',
  fk_pull_request_failure_wakes_run:
    'FOREIGN KEY (run_id, workspace_id) REFERENCES runs(id, workspace_id) ON DELETE SET NULL (run_id)',
  fk_routine_firings_conversation:
    'FOREIGN KEY (conversation_id, workspace_id) REFERENCES conversations(id, workspace_id) ON DELETE SET NULL (conversation_id)',
  fk_routine_firings_run:
    'FOREIGN KEY (run_id, workspace_id) REFERENCES runs(id, workspace_id) ON DELETE SET NULL (run_id)',
};

/**
 * T3: a conversation, a message and a run each had two unique indexes led by their id: the
 * primary key (id) and (id, workspace_id), which the tenant-scoped foreign keys reference (A2).
 * Every row a reply writes (a conversation, two messages, a run written three times: never HOT,
 * status is indexed) wrote an entry into both. The key is now (id, workspace_id) alone, as for
 * members: every look-up by id reads it by its first column, and the five foreign keys that named
 * a run or a conversation by id alone name it with its workspace. Ids stay unique in practice
 * (random).
 */
const UP = repoint(
  TABLES.map(
    (t) => `ALTER TABLE ${t} DROP CONSTRAINT pk_${t};
  ALTER TABLE ${t} DROP CONSTRAINT uq_${t}_id_workspace;
  ALTER TABLE ${t} ADD CONSTRAINT pk_${t} PRIMARY KEY (id, workspace_id);`,
  ).join('\n  '),
  BY_KEY,
);

const DOWN = repoint(
  TABLES.map(
    (t) => `ALTER TABLE ${t} DROP CONSTRAINT pk_${t};
  ALTER TABLE ${t} ADD CONSTRAINT pk_${t} PRIMARY KEY (id);
  ALTER TABLE ${t} ADD CONSTRAINT uq_${t}_id_workspace UNIQUE (id, workspace_id);`,
  ).join('\n  '),
  BY_ID,
);

export class KeysWithWorkspace1796800383000 implements MigrationInterface {
  readonly name = 'KeysWithWorkspace1796800383000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(UP);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(DOWN);
  }
}
