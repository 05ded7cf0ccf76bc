import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { secondaryIndexes, updatesSoFar } from './plan-indexes';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

/**
 * T3: an update that changes no indexed column writes its new row version beside the old one and
 * no index entry (HOT). The updates of a reply that need not touch an index do not.
 */
describe.each(DATABASE_KINDS)('a reply’s updates in place on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  const inAcme = <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.inWorkspace(acme.workspaceId, work);
  /** The heap page a row of `table` is on. */
  const pageOf = async (table: 'messages' | 'runs', id: string) => {
    const [row] = await inAcme((tx) =>
      tx.query<{ page: number }>(`SELECT (ctid::text::point)[0]::int AS page FROM ${table} WHERE id = $1`, [
        id,
      ]),
    );
    return row?.page;
  };

  it('P7, T3: a posted reply’s platform ref is written in place (HOT): no index of messages covers it', async () => {
    const reply = await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.messages.insert(acme.workspaceId, {
        conversationId: acme.conversationId,
        authorKind: 'agent',
        authorAgentId: acme.agentId,
        authorMemberId: null,
        text: 'pong',
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      }),
    );
    const { updates, covering } = await db.database.store.inWorkspace(acme.workspaceId, async (tx) => {
      const before = await updatesSoFar(tx, 'messages');
      await tx.messages.setPlatformRef(reply.id, '1700000000.000900');
      const after = await updatesSoFar(tx, 'messages');
      return {
        updates: { updated: after.updated - before.updated, hot: after.hot - before.hot },
        covering: await tx.query<{ name: string }>(
          `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
            WHERE x.indrelid = 'messages'::regclass
              AND (pg_get_indexdef(x.indexrelid) LIKE '%platform_message_ref%'
                   OR coalesce(pg_get_expr(x.indpred, x.indrelid), '') LIKE '%platform_message_ref%')`,
        ),
      };
    });
    expect(updates).toEqual({ updated: 1, hot: 1 });
    expect(covering).toEqual([]);
    const stored = await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.messages.findById(reply.id),
    );
    expect(stored?.platformMessageRef).toBe('1700000000.000900');
    expect(await db.database.store.transaction((tx) => secondaryIndexes(tx, 'messages'))).not.toContain(
      'uq_messages_platform_ref',
    );
  });

  it('P7, T3: a reply’s platform ref is written in place even once the messages after it have filled its page', async () => {
    const message = (text: string, authorKind: 'agent' | 'person') => ({
      conversationId: acme.conversationId,
      authorKind,
      authorAgentId: authorKind === 'agent' ? acme.agentId : null,
      authorMemberId: authorKind === 'person' ? acme.memberId : null,
      text,
      mentions: { agents: [], members: [] },
      platformMessageRef: null,
      note: null,
    });
    // Messages shorter than the reply, until one goes to a page of its own: the page before is full.
    const fillPage = async () => {
      const first = await inAcme((tx) => tx.messages.insert(acme.workspaceId, message('ok', 'person')));
      for (;;) {
        const next = await inAcme((tx) => tx.messages.insert(acme.workspaceId, message('ok', 'person')));
        if ((await pageOf('messages', next.id)) !== (await pageOf('messages', first.id))) return;
      }
    };
    await fillPage();
    const reply = await inAcme((tx) =>
      tx.messages.insert(acme.workspaceId, message('pong '.repeat(40), 'agent')),
    );
    await fillPage();
    const updates = await inAcme(async (tx) => {
      const before = await updatesSoFar(tx, 'messages');
      await tx.messages.setPlatformRef(reply.id, '1700000000.000901');
      const after = await updatesSoFar(tx, 'messages');
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(updates).toEqual({ updated: 1, hot: 1 });
  });

  it('T3: a run’s reply is written in place (HOT) even once the runs queued after it have filled its page', async () => {
    const queued = () =>
      inAcme((tx) =>
        tx.runs.insert({
          workspaceId: acme.workspaceId,
          agentId: acme.agentId,
          conversationId: acme.conversationId,
          triggerMessageId: acme.messageId,
          status: 'queued',
          liveness: 'ok',
          wakeChain: [],
          depth: 1,
          startedByMemberId: acme.memberId,
          startedByAgentId: null,
          startedAt: null,
          finishedAt: null,
          lastEventAt: null,
          error: null,
        }),
      );
    const run = await queued();
    // Runs queued after it until one goes to a page of its own: the run's page is full.
    for (;;) {
      const next = await queued();
      if ((await pageOf('runs', next.id)) !== (await pageOf('runs', run.id))) break;
    }
    const updates = await inAcme(async (tx) => {
      const before = await updatesSoFar(tx, 'runs');
      await tx.runs.update(run.id, { replyMessageId: acme.messageId });
      const after = await updatesSoFar(tx, 'runs');
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(updates).toEqual({ updated: 1, hot: 1 });
    const stored = await inAcme((tx) => tx.runs.findById(run.id));
    expect(stored?.replyMessageId).toBe(acme.messageId);
  });
});
