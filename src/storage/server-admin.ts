import { Client } from 'pg';

/**
 * Administration outside any one database: creating and dropping whole databases on a
 * PostgreSQL server (tests, provisioning). CREATE/DROP DATABASE cannot run inside a
 * transaction, so each is one statement on the server's maintenance database.
 */
const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const onServer = async (serverUrl: string, sql: string): Promise<void> => {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const checkedName = (name: string): string => {
  if (!SAFE_NAME.test(name)) throw new Error(`Not a plain database name: ${JSON.stringify(name)}.`);
  return name;
};

export const createPostgresDatabase = (serverUrl: string, name: string): Promise<void> =>
  onServer(serverUrl, `CREATE DATABASE ${checkedName(name)}`);

/** Drops the database even while sessions are connected to it. */
export const dropPostgresDatabase = (serverUrl: string, name: string): Promise<void> =>
  onServer(serverUrl, `DROP DATABASE IF EXISTS ${checkedName(name)} WITH (FORCE)`);

/** The URL of another database on the same server. */
export const databaseUrlFor = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${checkedName(name)}`;
  return url.toString();
};
