import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { seedWorkspace } from './workspace-fixture';

/** O3, O5: the tokens each live run has used so far, for the console's live runs. */
describe('usage.tokensOfRuns', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase('postgres');
  });
  afterEach(() => db.dispose());

  it('O5 sums every kind of token per run; a run without usage is 0; unknown ids and other workspaces are left out', async () => {
    const store = db.database.store;
    const a = await seedWorkspace(store, 'a');
    const b = await seedWorkspace(store, 'b');
    const call = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 300, cacheWriteTokens: 7 };
    await store.inWorkspace(b.workspaceId, (tx) =>
      tx.usage.addToRun(b.runId, { model: 'claude-sonnet-4-6', usage: call, costUsd: undefined }),
    );
    const before = await store.inWorkspace(a.workspaceId, (tx) => tx.usage.tokensOfRuns([a.runId]));
    expect([...before]).toEqual([[a.runId, 0]]);
    await store.inWorkspace(a.workspaceId, async (tx) => {
      await tx.usage.addToRun(a.runId, { model: 'claude-sonnet-4-6', usage: call, costUsd: 0.01 });
      await tx.usage.addToRun(a.runId, { model: 'claude-sonnet-4-6', usage: call, costUsd: 0.01 });
    });
    const seen = await store.inWorkspace(a.workspaceId, (tx) =>
      tx.usage.tokensOfRuns([a.runId, b.runId, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']),
    );
    expect([...seen]).toEqual([[a.runId, 3014]]);
    expect(await store.inWorkspace(a.workspaceId, (tx) => tx.usage.tokensOfRuns([]))).toEqual(new Map());
  });
});
