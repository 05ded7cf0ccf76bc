import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openPglite, type PgliteConnection } from '../../../src/storage/pglite/open-pglite';

/**
 * PGlite has no autovacuum: the engine vacuums and analyzes between requests, where the
 * session is idle, once enough requests came (`PgliteUpkeep`).
 */
describe('the embedded database’s upkeep (PGlite has no autovacuum)', () => {
  let dir: string;
  let pglite: PgliteConnection;
  let client: Client;
  const upkept: (string | null)[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'summon-pglite-upkeep-'));
    upkept.length = 0;
    pglite = await openPglite(dir, {
      upkeep: { requests: 40, share: 0 },
      onUpkeep: (error) => upkept.push(error),
    });
    client = new Client(pglite.poolConfig);
    await client.connect();
    await client.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
    await client.query('CREATE TABLE tags (id serial PRIMARY KEY, name text NOT NULL)');
  });

  afterEach(async () => {
    await client.end();
    await pglite.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Until the engine reported `runs` upkeep runs (its report comes after the reply that led to it). */
  const upkeepRuns = async (runs: number): Promise<void> => {
    while (pglite.upkeep.runs < runs) {
      if (pglite.upkeep.lastError !== null) throw new Error(pglite.upkeep.lastError);
      await client.query('SELECT 1');
    }
  };

  const statistics = async (table = 'notes') =>
    (await client.query<{ reltuples: number }>('SELECT reltuples FROM pg_class WHERE relname = $1', [table]))
      .rows[0];

  it('vacuums and analyzes every table once enough requests came: the planner has statistics', async () => {
    for (let i = 0; i < 30; i += 1) await client.query('INSERT INTO notes (body) VALUES ($1)', [`n${i}`]);
    await client.query('DELETE FROM notes WHERE id <= 10');
    // Never analyzed: the planner knows nothing of the table's rows.
    expect((await statistics())?.reltuples).toBe(-1);

    await upkeepRuns(1);

    expect((await statistics())?.reltuples).toBe(20);
    // Every table of the round, one after each request where the session was idle.
    expect((await statistics('tags'))?.reltuples).toBe(0);
    const last = await client.query<{ vacuumed: Date | null; analyzed: Date | null }>(
      `SELECT last_vacuum AS vacuumed, last_analyze AS analyzed FROM pg_stat_user_tables WHERE relname = 'notes'`,
    );
    expect(last.rows[0]?.vacuumed).not.toBeNull();
    expect(last.rows[0]?.analyzed).not.toBeNull();
    expect(upkept).toEqual([null]);
  });

  it('never runs inside a transaction the client holds open, and leaves its work whole', async () => {
    await client.query('BEGIN');
    for (let i = 0; i < 100; i += 1) await client.query('INSERT INTO notes (body) VALUES ($1)', [`n${i}`]);
    // 100 requests in the transaction, more than the 40 that make upkeep due: none ran in it.
    expect(pglite.upkeep.runs).toBe(0);
    await client.query('COMMIT');

    await upkeepRuns(1);

    const count = await client.query<{ n: string }>('SELECT count(*) AS n FROM notes');
    expect(count.rows[0]?.n).toBe('100');
    expect(pglite.upkeep.lastError).toBeNull();
  });

  it('runs again as requests keep coming, and not more often than its threshold', async () => {
    for (let i = 0; i < 130; i += 1) await client.query('INSERT INTO notes (body) VALUES ($1)', [`n${i}`]);
    // 132 requests since the start (the tables' creation two of them): rounds start at 40, 80
    // and 120, each done a request later (two tables).
    await upkeepRuns(3);
    expect(pglite.upkeep.runs).toBe(3);
  });

  it('reports a table it could not do, does the round’s other tables, and tries again at the next round', async () => {
    // An index whose expression fails while a session setting says so: ANALYZE evaluates it.
    await client.query(`CREATE FUNCTION boom(n int) RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
      BEGIN IF current_setting('summon_test.boom', true) = 'on' THEN RAISE 'boom %', n; END IF; RETURN n; END $$`);
    await client.query('CREATE TABLE exploding (id int NOT NULL)');
    await client.query('CREATE INDEX ix_exploding_boom ON exploding (boom(id))');
    await client.query('INSERT INTO exploding VALUES (1)');
    await client.query("SET summon_test.boom = 'on'");
    while (upkept.length === 0) await client.query('SELECT 1');

    expect(upkept[0]).toContain('boom 1');
    expect(pglite.upkeep).toEqual({ runs: 0, lastError: upkept[0] });
    expect((await statistics('tags'))?.reltuples).toBe(0);

    await client.query('RESET summon_test.boom');
    while (pglite.upkeep.runs < 1) await client.query('SELECT 1');
    expect(upkept).toEqual([upkept[0], null]);
    expect((await statistics('exploding'))?.reltuples).toBe(1);
  });
});
