import type { SqlStore } from '../../../src/storage/store/sql-store';

/** What the current schema holds besides TypeORM's own migrations table. */
export interface SchemaObjects {
  tables: string[];
  sequences: string[];
  types: string[];
  policies: string[];
  functions: string[];
}

export const schemaObjects = (store: SqlStore): Promise<SchemaObjects> =>
  store.transaction(async (tx) => {
    const names = async (sql: string) => (await tx.query<{ name: string }>(sql)).map((r) => r.name).sort();
    return {
      tables: await names(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'migrations'`,
      ),
      sequences: await names(
        `SELECT sequencename AS name FROM pg_sequences
          WHERE schemaname = current_schema() AND sequencename <> 'migrations_id_seq'`,
      ),
      // Row types of tables vanish with them; anything else (enums, domains) would be left over.
      types: await names(
        `SELECT t.typname AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
          WHERE n.nspname = current_schema() AND t.typtype <> 'c' AND t.typname NOT LIKE '\\_%'`,
      ),
      policies: await names(`SELECT policyname || ' on ' || tablename AS name FROM pg_policies`),
      functions: await names(
        `SELECT p.proname AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = current_schema()`,
      ),
    };
  });
