import type { Pool, PoolClient } from 'pg';
import { leanSimpleQuery } from '../../../src/storage/store/simple-query-message';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { seedWorkspace } from './workspace-fixture';

/** One message of several statements: every type the store reads, nulls, a repeated name, no rows, no result set. */
const MESSAGE = `SELECT 1 AS n, 'it''s'::text AS t, NULL::text AS z, 9007199254740993::bigint AS b,
    '{"a":[1,null,"x"]}'::jsonb AS j, NULL::jsonb AS jn, '2026-12-06T10:00:00.123Z'::timestamptz AS d,
    true AS f, ARRAY['a','b"c']::text[] AS arr, 0.5::numeric AS num, gen_random_uuid() IS NOT NULL AS u, 2 AS n;
  SELECT 2 AS none WHERE false;
  SELECT g AS x, g * 2 FROM generate_series(1, 3) AS g;
  SET LOCAL statement_timeout = 0;
  SELECT * FROM workspaces ORDER BY id;
  SELECT * FROM messages ORDER BY id`;

type Results = { command: string; rowCount: number | null; rows: unknown[]; fields: { name: string }[] }[];

/**
 * T3: the store's simple-query messages read their rows with `LeanQuery`, without pg's copies:
 * each result is exactly what pg's own query gives for the same message — names, values, types,
 * order, counts — and a failing statement fails the message the same way.
 */
describe.each(DATABASE_KINDS)('lean simple queries on %s', (kind) => {
  let db: TestDatabase;
  let client: PoolClient;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await seedWorkspace(db.database.store, 'acme');
    client = await (db.database.dataSource.driver as unknown as { master: Pool }).master.connect();
  });
  afterAll(async () => {
    client.release();
    await db.dispose();
  });

  const shape = (results: Results) =>
    results.map(({ command, rowCount, rows, fields }) => ({
      command,
      rowCount,
      rows,
      fields: fields.map((field) => field.name),
    }));

  it('T3: every result of a message is what pg itself reads', async () => {
    const ours = (await leanSimpleQuery(client, MESSAGE)) as unknown as Results;
    const pgs = (await client.query(MESSAGE)) as unknown as Results;
    expect(shape(ours)).toStrictEqual(shape(pgs));
    expect(ours.map((result) => result.rows.length)).toEqual([1, 0, 3, 0, 1, 3]);
    const first = ours[0]?.rows[0];
    expect(first).toMatchObject({
      n: 2,
      z: null,
      j: { a: [1, null, 'x'] },
      d: new Date('2026-12-06T10:00:00.123Z'),
    });
  });

  it('T3: a failing statement fails the message as pg’s own query does', async () => {
    const failing = 'SELECT 1 AS a; SELECT 1 / 0; SELECT 2 AS b';
    const ours = await leanSimpleQuery(client, failing).catch((error: unknown) => error);
    const pgs = await client.query(failing).catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(Error);
    expect({ code: (ours as { code?: string }).code, message: (ours as Error).message }).toEqual({
      code: (pgs as { code?: string }).code,
      message: (pgs as Error).message,
    });
    // The connection answers the next message.
    expect(((await leanSimpleQuery(client, 'SELECT 3 AS c')) as unknown as Results[number]).rows).toEqual([
      { c: 3 },
    ]);
  });
});
