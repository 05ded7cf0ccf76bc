import { warningsDuring } from '../../support/jest-process-warnings';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3: a transaction's repositories called together (`Promise.all` in one transaction) send their
 * queries one at a time on its connection: node-postgres never sees a query sent while another
 * runs (deprecated, a warning), and each call still gets its own answer.
 */
describe.each(DATABASE_KINDS)('one query at a time on a transaction’s connection, on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  it('T3: repository calls made together in one transaction emit no warning and each get their rows', async () => {
    let found: unknown[] = [];
    const warnings = await warningsDuring(async () => {
      found = await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
        Promise.all([
          tx.runs.findById(acme.runId),
          tx.conversations.findById(acme.conversationId),
          tx.messages.findById(acme.messageId),
          tx.runs.findById(acme.runId),
          tx.query<{ n: number }>('SELECT 1 AS n'),
          tx.approvals.findById(acme.approvalId),
        ]),
      );
    });
    expect(warnings).toEqual([]);
    const [run, conversation, message, again, rows, approval] = found as [
      { id: string },
      { id: string },
      { id: string },
      { id: string },
      { n: number }[],
      { id: string },
    ];
    expect([run.id, conversation.id, message.id, again.id, approval.id]).toEqual([
      acme.runId,
      acme.conversationId,
      acme.messageId,
      acme.runId,
      acme.approvalId,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('T3: TypeORM’s own schema reader, which reads tables together, emits no warning', async () => {
    const warnings = await warningsDuring(() => db.database.dataSource.driver.createSchemaBuilder().log());
    expect(warnings).toEqual([]);
  });

  it('T3: a query failing among others made together rolls the transaction back, with no warning', async () => {
    const warnings = await warningsDuring(async () => {
      const outcome = await db.database.store
        .inWorkspace(acme.workspaceId, (tx) =>
          Promise.allSettled([tx.runs.findById(acme.runId), tx.query('SELECT * FROM no_such_table')]),
        )
        .catch((error: unknown) => error);
      expect(outcome).toBeDefined();
    });
    expect(warnings).toEqual([]);
    const after = await db.database.store.inWorkspace(acme.workspaceId, (tx) => tx.runs.findById(acme.runId));
    expect(after?.id).toBe(acme.runId);
  });
});
