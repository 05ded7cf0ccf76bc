import type { Database } from '../../src/storage/database';

/**
 * Putting a used test database back into the state of a fresh copy of the migrated template,
 * so that one database (a PGlite engine, a PostgreSQL database) serves several tests of a file:
 * opening one costs seconds, this a few dozen milliseconds.
 *
 * Only data is reset. A test that changed the schema (reverted a migration, altered a table, a
 * grant, a policy, a role) leaves a database whose fingerprint differs from the template's, and
 * such a database is thrown away, never reused.
 */

/** The migrations' own bookkeeping: part of the template's state, never emptied. */
const MIGRATIONS_TABLE = 'migrations';

/** The schema's sequences that have handed out a value, but the migrations' own. */
const USED_SEQUENCES = `pg_sequences WHERE schemaname = current_schema() AND last_value IS NOT NULL
  AND format('%I.%I', schemaname, sequencename)::regclass <> pg_get_serial_sequence('${MIGRATIONS_TABLE}', 'id')::regclass`;

const query = async <T>(database: Database, sql: string): Promise<T[]> =>
  (await database.dataSource.query(sql)) as T[];

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const dataTables = async (database: Database): Promise<string[]> =>
  (
    await query<{ name: string }>(
      database,
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '${MIGRATIONS_TABLE}' ORDER BY tablename`,
    )
  ).map((row) => row.name);

/**
 * What a test could change beyond data: every DDL statement (a table, column, default,
 * constraint, index, policy, trigger, function, schema, a grant, row-level security; for PGlite, a
 * cluster of its own, a role) inserts, updates or deletes rows of these catalogs, so their row
 * counts and newest row versions (`xmin`) change; data changes and vacuum's statistics (written
 * in place) do not touch them. And the migrations run.
 */
const CATALOGS = [
  'pg_class',
  'pg_attribute',
  'pg_attrdef',
  'pg_constraint',
  'pg_index',
  'pg_policy',
  'pg_trigger',
  'pg_proc',
  'pg_namespace',
];

const fingerprintSql = (withRoles: boolean): string =>
  `SELECT concat_ws('|', ${[...CATALOGS, ...(withRoles ? ['pg_authid'] : [])]
    .map((catalog) => `(SELECT count(*) || ':' || max(xmin::text::bigint) FROM ${catalog})`)
    .join(
      ', ',
    )}, (SELECT string_agg(timestamp || ':' || name, ',' ORDER BY id) FROM ${MIGRATIONS_TABLE})) AS fingerprint`;

export const schemaFingerprint = async (database: Database): Promise<string> => {
  const [row] = await query<{ fingerprint: string }>(database, fingerprintSql(database.kind === 'pglite'));
  if (row === undefined) throw new Error('The schema fingerprint query returned no row.');
  return row.fingerprint;
};

/**
 * Checked once on a fresh copy of the template: emptying every table but the migrations' and
 * setting the used sequences back to their start gives back exactly such a copy only while the
 * migrations insert no rows and use no sequence.
 */
export const assertResettable = async (database: Database): Promise<void> => {
  const tables = await dataTables(database);
  const seeded =
    tables.length === 0
      ? []
      : await query<{ name: string }>(
          database,
          tables
            .map((t) => `SELECT '${t}' AS name WHERE EXISTS (SELECT 1 FROM ${quoted(t)})`)
            .join(' UNION ALL '),
        );
  const used = await query<{ name: string }>(database, `SELECT sequencename AS name FROM ${USED_SEQUENCES}`);
  if (seeded.length > 0 || used.length > 0) {
    throw new Error(
      'Test databases are reset by emptying every table but the migrations\u2019 (test/support/test-database-reset.ts), ' +
        `which no longer gives a fresh copy of the template: rows seeded by the migrations in ${JSON.stringify(seeded.map((r) => r.name))}, ` +
        `sequences already used ${JSON.stringify(used.map((r) => r.name))}. Restore those in the reset.`,
    );
  }
};

/**
 * Ends whatever a previous test left in the session (PGlite keeps one session across
 * connections: an open transaction, settings, a role, prepared statements, advisory locks),
 * then deletes every row but the migrations' (in one transaction, foreign keys not checked: every
 * table is emptied) and sets the sequences that were used back to their start. DELETE, not
 * TRUNCATE: TRUNCATE makes new files for every table and index, many times slower on tables
 * holding a few rows.
 */
export const resetData = async (database: Database): Promise<void> => {
  if (database.kind === 'pglite') {
    await database.dataSource.query('ROLLBACK');
    await database.dataSource.query('DISCARD ALL');
  }
  const deletes = (await dataTables(database)).map((table) => `DELETE FROM ${quoted(table)};`);
  await database.dataSource.query(
    `BEGIN; SET LOCAL session_replication_role = replica; ${deletes.join(' ')}
     SELECT setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) FROM ${USED_SEQUENCES};
     COMMIT;`,
  );
};
