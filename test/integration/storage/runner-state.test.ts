import { runnerStatesHeld } from '../../../src/storage/runner-state';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3: what a transaction keeps beside its query runner (owed statements, remembered reads, its
 * last send, its role) is dropped when the runner is released — committed, failed or refused —
 * not left in a `WeakMap` for a full garbage collection (`src/storage/runner-state.ts`).
 */
describe.each(DATABASE_KINDS)('a transaction’s state beside its runner, on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  it('T3: is held while the transaction runs and forgotten once it committed', async () => {
    const before = runnerStatesHeld();
    let during = before;
    await db.database.store.inWorkspace(acme.workspaceId, async (tx) => {
      await tx.runs.findById(acme.runId);
      await tx.messages.setPlatformRef(acme.messageId, 'ts-1');
      during = runnerStatesHeld();
    });
    expect(during).toBeGreaterThan(before);
    expect(runnerStatesHeld()).toBe(before);
  });

  it('T3: is forgotten after a transaction whose work failed, and after several at once', async () => {
    const before = runnerStatesHeld();
    const failing = db.database.store.inWorkspace(acme.workspaceId, async (tx) => {
      await tx.runs.findById(acme.runId);
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    const refused = db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.query('SELECT * FROM no_such_table'),
    );
    await expect(refused).rejects.toThrow();
    await Promise.all(
      Array.from({ length: 8 }, () =>
        db.database.store.inWorkspace(acme.workspaceId, (tx) =>
          tx.conversations.findById(acme.conversationId),
        ),
      ),
    );
    expect(runnerStatesHeld()).toBe(before);
  });
});
