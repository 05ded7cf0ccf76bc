import { randomUUID } from 'node:crypto';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { TENANT_SETTINGS } from '../../../src/storage/store/tenant-settings';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

interface PreparedRow {
  name: string;
  generic_plans: string | number;
  custom_plans: string | number;
}

/**
 * T3, A2: an insert routing makes in the system context and a turn in the tenant's (the
 * person's message, the agent's reply) is prepared apart in each: PostgreSQL plans a prepared
 * statement again whenever it runs as another role than its plan was made for (row-level
 * security), so one statement shared by both would be planned at every run.
 */
describe.each(DATABASE_KINDS)('prepared inserts in both contexts on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  /** One message inserted as routing and turns do (owed); the connection's message inserts (its PREPARE's message holds one). */
  const insertAndList = async (tx: SqlStoreTx): Promise<PreparedRow[]> => {
    await tx.messages.insertOwed(acme.workspaceId, {
      id: randomUUID(),
      conversationId: acme.conversationId,
      authorKind: 'agent',
      authorAgentId: acme.agentId,
      authorMemberId: null,
      text: 'pong',
      mentions: { agents: [], members: [] },
      platformMessageRef: null,
      note: null,
    });
    return tx.query<PreparedRow>(
      `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
        WHERE statement LIKE '%AS INSERT INTO "messages"%' AND name <> $1`,
      [TENANT_SETTINGS.name],
    );
  };

  it('T3, A2: each context runs its own prepared insert', async () => {
    const seen = new Map<string, PreparedRow>();
    for (let i = 0; i < 8; i++) {
      const rows = [
        ...(await db.database.store.transaction(insertAndList)),
        ...(await db.database.store.inWorkspace(acme.workspaceId, insertAndList)),
      ];
      for (const row of rows) seen.set(row.name, row);
    }
    // Each context ran its own statement eight times (the seed's ran fewer); one statement run
    // sixteen times, as each role in turn, would be planned again at every run.
    const runs = [...seen.values()]
      .map((row) => Number(row.custom_plans) + Number(row.generic_plans))
      .filter((n) => n >= 8);
    expect(runs).toEqual([8, 8]);
  });
});
