import type { RoutingKey } from '../../../src/core/ports/routing-reads';
import { PreparedStatement } from '../../../src/storage/store/prepared-statement';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { queryTogether, sqlLiteral } from '../../../src/storage/store/statements-together';
import { recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3: routing's and a turn's reads are prepared statements, planned once per connection: a
 * connection prepares each the first time it sends it and afterwards only runs it, and a
 * message that failed before its PREPARE ran leaves nothing that breaks a later one.
 */
describe.each(DATABASE_KINDS)('prepared statements on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  let messages: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    recordMessages(db.database.dataSource, (query) => void messages.push(query));
  });
  afterAll(() => db.dispose());
  beforeEach(() => {
    messages = [];
  });

  const system = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.transaction(work);
  const key = (): RoutingKey => ({
    platform: 'slack',
    workspace: { platform: 'slack', externalId: 'T-acme' },
    channelId: 'C-none',
    thread: 'C-none:1.0',
    senderId: 'U-acme',
    mentioned: ['acme'],
  });

  it('a connection prepares routing’s statements once and then only runs them, with the same answers', async () => {
    const [first, second] = await system(async (tx) => [
      await tx.routingReads.read(key()),
      await tx.routingReads.read(key()),
    ]);
    expect(second).toEqual(first);
    expect(first.workspace?.id).toBe(acme.workspaceId);
    expect(first.sender?.id).toBe(acme.memberId);
    // Both reads went on the transaction's one connection: the first prepared, the second did not.
    const reads = messages.filter((m) => m.includes('EXECUTE '));
    expect(reads).toHaveLength(2);
    expect(reads[0]).toContain('PREPARE summon_');
    expect(reads[1]).not.toContain('PREPARE');
    // A connection already holding them (the pool's or PGlite's one) does not prepare them again.
    messages = [];
    await system((tx) => tx.routingReads.read(key()));
    if (kind === 'pglite') expect(messages.join('\n')).not.toContain('PREPARE');
  });

  it('a message that failed before its PREPARE ran leaves the statement usable in the next transaction', async () => {
    const runById = new PreparedStatement(['uuid'], 'SELECT id FROM runs WHERE id = $1');
    const call = runById.with(sqlLiteral(acme.runId));
    const { dataSource } = db.database;
    await expect(
      dataSource.transaction((manager) => queryTogether(manager, ['SELECT 1/0', call])),
    ).rejects.toThrow(/division by zero/);
    // PGlite has one session: the same one, whose PREPARE never ran.
    const [rows] = await dataSource.transaction((manager) => queryTogether(manager, [call]));
    expect(rows).toEqual([{ id: acme.runId }]);
  });

  it('a turn’s reads prepared come back as they are stored', async () => {
    const reads = await system((tx) =>
      tx.turnReads.read(
        {
          id: acme.runId,
          workspaceId: acme.workspaceId,
          conversationId: acme.conversationId,
          triggerMessageId: acme.messageId,
        },
        20,
      ),
    );
    expect(reads.workspace?.id).toBe(acme.workspaceId);
    expect(reads.trigger?.id).toBe(acme.messageId);
    expect(reads.recent.map((m) => m.id)).toContain(acme.messageId);
  });
});
