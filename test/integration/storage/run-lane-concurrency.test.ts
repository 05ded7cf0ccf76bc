import type { RunRecord } from '../../../src/core/model/records';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that settles it. */
const signal = () => {
  let fire = () => {};
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
};

const withinMs = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

/**
 * Only PostgreSQL has concurrent transactions: PGlite runs the store's transactions one after
 * another, so there the lane lock is never contended (run-lanes.test.ts covers both engines).
 */
describe('claiming runs from concurrent workers on postgres', () => {
  let db: TestDatabase;
  let ws: string;
  let agents: string[];
  let conversations: string[];

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    ({ ws, agents, conversations } = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      const space = await tx.spaces.insert(workspace.id, spaceFields('backend'));
      const conversation = () =>
        tx.conversations.insert(workspace.id, {
          spaceId: space.id,
          platform: 'terminal',
          threadId: null,
          title: '',
          ownerAgentId: null,
          createdByAgentId: null,
        });
      return {
        ws: workspace.id,
        agents: [
          (await tx.agents.insert(workspace.id, agentFields('alice'))).id,
          (await tx.agents.insert(workspace.id, agentFields('bob'))).id,
        ],
        conversations: [(await conversation()).id, (await conversation()).id],
      };
    }));
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);

  const queueRuns = (agentId: string, conversationId: string, count: number) =>
    inWs(async (tx) => {
      const out: RunRecord[] = [];
      for (let n = 0; n < count; n++) {
        out.push(
          await tx.runs.insert({
            workspaceId: ws,
            agentId,
            conversationId,
            triggerMessageId: null,
            status: 'queued',
            liveness: 'ok',
            wakeChain: [],
            depth: 1,
            startedByMemberId: null,
            startedByAgentId: null,
            startedAt: null,
            finishedAt: null,
            lastEventAt: null,
            error: null,
          }),
        );
      }
      return out;
    });

  /** Workers that each claim in their own transaction and hold it a moment, as a turn's start would. */
  const race = (workers: number, agentId: string, conversationId: string) =>
    Promise.all(
      Array.from({ length: workers }, (_, n) =>
        // Half of them in the system context, half in the workspace's: the lock is the same.
        (n % 2 === 0 ? inWs : db.database.store.transaction.bind(db.database.store))(async (tx) => {
          const claimed = await tx.runs.claimNext(agentId, conversationId, new Date());
          await sleep(20);
          return claimed;
        }),
      ),
    );

  const statuses = (conversationId: string) =>
    inWs((tx) =>
      tx.query<{ id: string; status: string }>(
        'SELECT id, status FROM runs WHERE conversation_id = $1 ORDER BY created_at, seq',
        [conversationId],
      ),
    );

  it('lets exactly one of many workers claim a lane, and the next claim takes the next-oldest run', async () => {
    const [agentId = '', conversationId = ''] = [agents[0], conversations[0]];
    const queued = await queueRuns(agentId, conversationId, 3);
    for (const [round, expected] of queued.entries()) {
      const claims = await race(8, agentId, conversationId);
      const winners = claims.filter((c) => c !== null);
      expect({ round, winners: winners.map((w) => w.id) }).toEqual({ round, winners: [expected.id] });
      const running = (await statuses(conversationId)).filter((r) => r.status === 'running');
      expect(running.map((r) => r.id)).toEqual([expected.id]);
      // The lane stays taken until its run ends.
      expect((await race(4, agentId, conversationId)).every((c) => c === null)).toBe(true);
      await inWs((tx) => tx.runs.update(expected.id, { status: 'succeeded', finishedAt: new Date() }));
    }
    expect((await statuses(conversationId)).map((r) => r.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    expect((await race(4, agentId, conversationId)).every((c) => c === null)).toBe(true);
  });

  it('claims different lanes in parallel: one lane’s open claim does not hold up another’s', async () => {
    const [alice = '', bob = ''] = agents;
    const [one = '', two = ''] = conversations;
    const lanes = [
      [alice, two],
      [bob, one],
      [bob, two],
    ] as const;
    const queued = await Promise.all(
      lanes.map(([agentId, conversationId]) => queueRuns(agentId, conversationId, 1)),
    );

    // Each worker claims its lane and then waits, still in its transaction, until every other
    // worker has claimed too: that only finishes if no lane lock waits for another lane's.
    const claimedSignals = lanes.map(() => signal());
    const everyoneClaimed = Promise.all(claimedSignals.map((s) => s.fired));
    const claims = await withinMs(
      Promise.all(
        lanes.map(([agentId, conversationId], n) =>
          inWs(async (tx) => {
            const claimed = await tx.runs.claimNext(agentId, conversationId, new Date());
            claimedSignals[n]?.fire();
            await everyoneClaimed;
            return claimed;
          }),
        ),
      ),
      10_000,
      'parallel claims of different lanes',
    );
    expect(claims.map((c) => c?.id)).toEqual(queued.map(([run]) => run?.id));
  });
});
