import { TURN_READ_PREPARED } from '../../../src/storage/store/repositories/turn-read-repository';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from './workspace-fixture';

type PlanCacheMode = 'force_generic_plan' | 'force_custom_plan';

interface PlanNode {
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
}

const TURN_MEMBERS = TURN_READ_PREPARED.find((statement) =>
  statement.text.startsWith('SELECT * FROM members'),
);

/**
 * T3, A2: a turn's members read (`turnReads`) finds its trigger's author by key, under the
 * tenant's row-level security, with the plan a connection keeps (generic) and with one made for
 * its arguments (custom): the buffers it visits do not grow with the workspace's messages.
 */
describe.each(DATABASE_KINDS)('a turn’s members read on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
  });
  afterAll(() => db.dispose());

  /** The buffers one EXECUTE of the read visits, in acme's tenant context. */
  const buffersOfRead = (mode: PlanCacheMode, n: number) =>
    db.database.store.inWorkspace(acme.workspaceId, async (tx: SqlStoreTx) => {
      if (TURN_MEMBERS === undefined) throw new Error('no members read among the turn’s statements');
      const name = `test_turn_members_${n}`;
      await tx.query(`PREPARE ${name}(${TURN_MEMBERS.types.join(', ')}) AS ${TURN_MEMBERS.text}`);
      try {
        await tx.query(`SET LOCAL plan_cache_mode = ${mode}`);
        const args = [acme.workspaceId, acme.conversationId, acme.runId].map((id) => `'${id}'::uuid`);
        const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE ${name}(${args.join(', ')}, 50, NULL)`,
        );
        const explained = row?.['QUERY PLAN'];
        const [{ Plan: plan }] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as [
          { Plan: PlanNode },
        ];
        return (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
      } finally {
        await tx.query(`DEALLOCATE ${name}`);
      }
    });

  it('T3, A2: the trigger’s author is found by key, not by reading the workspace’s messages', async () => {
    const modes: PlanCacheMode[] = ['force_generic_plan', 'force_custom_plan'];
    await db.database.dataSource.query('ANALYZE messages');
    const before = [
      await buffersOfRead(modes[0] as PlanCacheMode, 1),
      await buffersOfRead(modes[1] as PlanCacheMode, 2),
    ];
    // Another conversation of the same workspace fills up.
    const other = await db.database.store.inWorkspace(acme.workspaceId, (tx) =>
      tx.conversations.insert(acme.workspaceId, {
        spaceId: acme.spaceId,
        platform: 'slack',
        threadId: `${acme.threadId}-busy`,
        title: 'Busy',
        ownerAgentId: acme.agentId,
        createdByAgentId: null,
      }),
    );
    await db.database.dataSource.query(
      `INSERT INTO messages (workspace_id, conversation_id, author_kind, text)
       SELECT $1, $2, 'system', 'message ' || g FROM generate_series(1, 3000) AS g`,
      [acme.workspaceId, other.id],
    );
    await db.database.dataSource.query('ANALYZE messages');
    const after = [
      await buffersOfRead(modes[0] as PlanCacheMode, 3),
      await buffersOfRead(modes[1] as PlanCacheMode, 4),
    ];
    // Read in full, 3000 messages are some 70 more buffers; by key, a few (its indexes gain a level).
    for (const [i, visited] of after.entries()) expect(visited).toBeLessThanOrEqual((before[i] ?? 0) + 10);
  });
});
