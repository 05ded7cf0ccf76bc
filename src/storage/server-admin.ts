import { Client } from 'pg';

/**
 * Administration outside any one database: creating and dropping whole databases on a
 * PostgreSQL server (tests, provisioning). CREATE/DROP DATABASE cannot run inside a
 * transaction, so each is one statement on the server's maintenance database.
 */
const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const onServer = async (serverUrl: string, sql: string, values: unknown[] = []): Promise<number> => {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rowCount ?? 0;
  } finally {
    await client.end();
  }
};

const checkedName = (name: string): string => {
  if (!SAFE_NAME.test(name)) throw new Error(`Not a plain database name: ${JSON.stringify(name)}.`);
  return name;
};

/** A new, empty database; or a copy of `template` (which no session may be connected to). */
export const createPostgresDatabase = async (
  serverUrl: string,
  name: string,
  template?: string,
): Promise<void> => {
  const from = template === undefined ? '' : ` TEMPLATE ${checkedName(template)}`;
  await onServer(serverUrl, `CREATE DATABASE ${checkedName(name)}${from}`);
};

export const postgresDatabaseExists = async (serverUrl: string, name: string): Promise<boolean> =>
  (await onServer(serverUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [checkedName(name)])) > 0;

/**
 * Renames a database no session is connected to. A session that just closed may still be
 * ending on the server: that refusal (55006, "being accessed by other users") is retried briefly.
 */
export const renamePostgresDatabase = async (serverUrl: string, from: string, to: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await onServer(serverUrl, `ALTER DATABASE ${checkedName(from)} RENAME TO ${checkedName(to)}`);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/** Drops the database even while sessions are connected to it. */
export const dropPostgresDatabase = async (serverUrl: string, name: string): Promise<void> => {
  await onServer(serverUrl, `DROP DATABASE IF EXISTS ${checkedName(name)} WITH (FORCE)`);
};

/** The URL of another database on the same server. */
export const databaseUrlFor = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${checkedName(name)}`;
  return url.toString();
};
