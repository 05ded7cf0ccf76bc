import { DEFAULT_TIMINGS } from '../../../src/core/engine/engine-timings';
import { claimTurn } from '../../../src/core/engine/turn/load-claimed-turn';
import { TurnWrites } from '../../../src/core/engine/turn/turn-writes';
import type { Store } from '../../../src/core/ports/store';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { type SeededWorkspace, seedWorkspace } from '../storage/workspace-fixture';

/**
 * T3 (issue 12, item 5): the card refs and replies of turns that store them at the same time
 * go in one transaction; each turn gets what a transaction of its own would have given it, and
 * a turn the database refuses fails alone.
 */
describe.each(DATABASE_KINDS)('turns’ card refs and replies stored together on %s', (kind) => {
  let db: TestDatabase;
  let acme: SeededWorkspace;
  /** The store, counting the transactions it is asked for. */
  let counted: Store;
  let transactions = 0;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    acme = await seedWorkspace(db.database.store, 'acme');
    const store = db.database.store;
    counted = {
      transaction: (work) => {
        transactions += 1;
        return store.transaction(work);
      },
      inWorkspace: (workspaceId, work) => {
        transactions += 1;
        return store.inWorkspace(workspaceId, work);
      },
      addToInbox: (entry) => store.addToInbox(entry),
      warm: () => store.warm(),
      close: () => store.close(),
    };
  });
  afterAll(() => db.dispose());
  beforeEach(() => {
    transactions = 0;
  });

  const inAcme = <T>(work: (tx: SqlStoreTx) => Promise<T>) =>
    db.database.store.inWorkspace(acme.workspaceId, work);

  /** `count` running runs of the seeded agent, each in a conversation of its own. */
  const runningRuns = (count: number, status: 'running' | 'queued' = 'running') =>
    inAcme(async (tx) => {
      const runs: { runId: string; conversationId: string }[] = [];
      for (let i = 0; i < count; i++) {
        const conversation = await tx.conversations.insert(acme.workspaceId, {
          spaceId: acme.spaceId,
          platform: 'slack',
          threadId: `C1:${Date.now()}.${i}${Math.random()}`,
          title: '',
          ownerAgentId: null,
          createdByAgentId: null,
        });
        const run = await tx.runs.insert({
          workspaceId: acme.workspaceId,
          agentId: acme.agentId,
          conversationId: conversation.id,
          triggerMessageId: null,
          status,
          liveness: 'ok',
          wakeChain: [],
          depth: 1,
          startedByMemberId: acme.memberId,
          startedByAgentId: null,
          startedAt: status === 'running' ? new Date() : null,
          finishedAt: null,
          lastEventAt: null,
          error: null,
          statusCardRef: null,
        });
        runs.push({ runId: run.id, conversationId: conversation.id });
      }
      return runs;
    });

  it('T3: card refs stored at the same time share transactions; each turn reads its own run back', async () => {
    const runs = await runningRuns(8);
    const writes = new TurnWrites(counted);
    const read = await Promise.all(
      runs.map(({ runId }, i) => writes.storeCardRef(acme.workspaceId, runId, `card-${i}`)),
    );
    // Two go at once, alone; the six that came meanwhile go together.
    expect(transactions).toBe(3);
    expect(read.map((run) => run.statusCardRef)).toEqual(runs.map((_, i) => `card-${i}`));
    expect(read.map((run) => run.id)).toEqual(runs.map(({ runId }) => runId));
    const stored = await inAcme((tx) => Promise.all(runs.map(({ runId }) => tx.runs.findById(runId))));
    expect(stored.map((run) => run?.statusCardRef)).toEqual(runs.map((_, i) => `card-${i}`));
  });

  it('T3: replies stored at the same time share transactions; each is its run’s reply', async () => {
    const runs = await runningRuns(6);
    const writes = new TurnWrites(counted);
    const ids = await Promise.all(
      runs.map((run, i) =>
        writes.storeReply(acme.workspaceId, { ...run, agentId: acme.agentId, text: `reply ${i}` }),
      ),
    );
    expect(transactions).toBe(3);
    expect(new Set(ids).size).toBe(6);
    for (const [i, run] of runs.entries()) {
      const [stored, message] = await inAcme((tx) =>
        Promise.all([tx.runs.findById(run.runId), tx.messages.findById(ids[i] ?? '')]),
      );
      expect(stored?.replyMessageId).toBe(ids[i]);
      expect(message).toMatchObject({
        conversationId: run.conversationId,
        authorKind: 'agent',
        authorAgentId: acme.agentId,
        text: `reply ${i}`,
      });
    }
  });

  it('a turn whose write the database refuses fails alone; the others of its batch are stored', async () => {
    const runs = await runningRuns(5);
    const writes = new TurnWrites(counted);
    const gone = '00000000-0000-4000-8000-000000000000';
    const results = await Promise.allSettled([
      ...runs.map(({ runId }, i) => writes.storeCardRef(acme.workspaceId, runId, `card-${i}`)),
      writes.storeCardRef(acme.workspaceId, gone, 'card-gone'),
    ]);
    expect(results.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
    expect(results[5]).toMatchObject({ status: 'rejected', reason: { code: 'not_found' } });
    const stored = await inAcme((tx) => Promise.all(runs.map(({ runId }) => tx.runs.findById(runId))));
    expect(stored.map((run) => run?.statusCardRef)).toEqual(runs.map((_, i) => `card-${i}`));

    const replies = await Promise.allSettled([
      ...runs.map((run, i) =>
        writes.storeReply(acme.workspaceId, { ...run, agentId: acme.agentId, text: `reply ${i}` }),
      ),
      writes.storeReply(acme.workspaceId, {
        ...(runs[0] ?? { conversationId: '' }),
        runId: gone,
        agentId: acme.agentId,
        text: 'lost',
      }),
    ]);
    expect(replies.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
    expect(replies[5]).toMatchObject({ status: 'rejected', reason: { code: 'not_found' } });
    const lost = await inAcme((tx) => tx.query(`SELECT 1 FROM messages WHERE text = 'lost'`));
    expect(lost).toEqual([]);
  });

  it('T3: claims of several lanes share transactions, each taking its own lane; two claims of one lane claim it once', async () => {
    const runs = await runningRuns(5, 'queued');
    const writes = new TurnWrites(counted);
    const deps = {
      timings: DEFAULT_TIMINGS,
      clock: { now: () => new Date() },
      store: counted,
      turnWrites: writes,
    };
    const lanes = runs.map(({ conversationId }) => ({
      workspaceId: acme.workspaceId,
      agentId: acme.agentId,
      conversationId,
    }));
    const claim = (i: number) => {
      const lane = lanes[i] ?? lanes[0];
      if (lane === undefined) throw new Error('no lane');
      return claimTurn(deps, lane, runs[i]?.runId ?? null);
    };
    // The last lane's run is claimed twice, in the batch the first two leave to gather.
    const claims = await Promise.all([0, 1, 2, 3, 4, 4].map(claim));
    expect(transactions).toBe(3);
    expect(claims.slice(0, 4).map((c) => c?.claimed.id)).toEqual(runs.slice(0, 4).map((r) => r.runId));
    const last = claims.slice(4).map((c) => c?.claimed.id ?? null);
    expect(last.filter((id) => id !== null)).toEqual([runs[4]?.runId]);
    const stored = await inAcme((tx) => Promise.all(runs.map(({ runId }) => tx.runs.findById(runId))));
    expect(stored.map((run) => run?.status)).toEqual(Array(5).fill('running'));
  });
});
