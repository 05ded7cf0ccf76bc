import { NotFoundError, ValidationError } from '../../../src/core/errors';
import type { RunStatus } from '../../../src/core/model/run';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { agentFields, spaceFields } from './workspace-fixture';

const MISSING = '00000000-0000-4000-8000-000000000000';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));

describe.each(DATABASE_KINDS)('runs as the turn engine drives them on %s', (kind) => {
  let db: TestDatabase;
  let ws: string;
  let alice: string;
  let bob: string;
  let spaceId: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ({ ws, alice, bob, spaceId } = await db.database.store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      return {
        ws: workspace.id,
        alice: (await tx.agents.insert(workspace.id, agentFields('alice'))).id,
        bob: (await tx.agents.insert(workspace.id, agentFields('bob'))).id,
        spaceId: (await tx.spaces.insert(workspace.id, spaceFields('backend'))).id,
      };
    }));
  });
  afterAll(() => db.dispose());

  const inWs = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.inWorkspace(ws, work);
  const system = <T>(work: (tx: SqlStoreTx) => Promise<T>) => db.database.store.transaction(work);

  const newConversation = async () =>
    (
      await inWs((tx) =>
        tx.conversations.insert(ws, {
          spaceId,
          platform: 'terminal',
          threadId: null,
          title: '',
          ownerAgentId: null,
          createdByAgentId: null,
        }),
      )
    ).id;

  const queue = (agentId: string, conversationId: string, minute: number, status: RunStatus = 'queued') =>
    inWs((tx) =>
      tx.runs.insert({
        workspaceId: ws,
        agentId,
        conversationId,
        triggerMessageId: null,
        status,
        liveness: 'ok',
        wakeChain: [],
        depth: 1,
        startedByMemberId: null,
        startedByAgentId: null,
        createdAt: at(minute),
        startedAt: null,
        finishedAt: null,
        lastEventAt: null,
        error: null,
      }),
    );

  it('stores a run’s status card and reply, and finds a run by id (P9)', async () => {
    const conversationId = await newConversation();
    const plain = await queue(alice, conversationId, 0);
    expect(plain).toMatchObject({ statusCardRef: null, replyMessageId: null });
    const reply = await inWs((tx) =>
      tx.messages.insert(ws, {
        conversationId,
        authorKind: 'agent',
        authorAgentId: alice,
        authorMemberId: null,
        text: 'Done.',
        mentions: { agents: [], members: [] },
        platformMessageRef: null,
        note: null,
      }),
    );
    const carded = await inWs((tx) =>
      tx.runs.insert({
        ...plain,
        createdAt: at(1),
        statusCardRef: 'terminal:card:1',
        replyMessageId: reply.id,
      }),
    );
    expect(carded).toMatchObject({ statusCardRef: 'terminal:card:1', replyMessageId: reply.id });
    expect(await inWs((tx) => tx.runs.findById(carded.id))).toEqual(carded);
    expect(await inWs((tx) => tx.runs.findById(MISSING))).toBeNull();
    expect(await inWs((tx) => tx.runs.findById('nonsense'))).toBeNull();
    // The reply goes, the run stays and forgets it.
    await system((tx) => tx.query('DELETE FROM messages WHERE id = $1', [reply.id]));
    expect((await inWs((tx) => tx.runs.findById(carded.id)))?.replyMessageId).toBeNull();
  });

  it('updates only the fields of a RunPatch, and refuses an unknown run', async () => {
    const conversationId = await newConversation();
    const run = await queue(alice, conversationId, 0, 'running');
    const patch = {
      status: 'failed' as const,
      liveness: 'dead' as const,
      finishedAt: at(9),
      lastEventAt: at(8),
      error: 'worker died',
      statusCardRef: 'terminal:card:2',
      // Not part of a RunPatch: ignored, whatever the caller's object carries (A2).
      agentId: bob,
      workspaceId: MISSING,
      depth: 3,
    };
    await inWs((tx) => tx.runs.update(run.id, patch));
    expect(await inWs((tx) => tx.runs.findById(run.id))).toEqual({
      ...run,
      status: 'failed',
      liveness: 'dead',
      finishedAt: at(9),
      lastEventAt: at(8),
      error: 'worker died',
      statusCardRef: 'terminal:card:2',
    });
    await inWs((tx) => tx.runs.update(run.id, { error: null }));
    expect((await inWs((tx) => tx.runs.findById(run.id)))?.error).toBeNull();
    await expect(inWs((tx) => tx.runs.update(run.id, { status: 'lost' as never }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(inWs((tx) => tx.runs.update(MISSING, { error: 'x' }))).rejects.toBeInstanceOf(NotFoundError);
    await expect(inWs((tx) => tx.runs.update(run.id, { replyMessageId: MISSING }))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('claims a lane’s runs one at a time, oldest first, and never two running at once', async () => {
    const conversationId = await newConversation();
    const claim = (agentId = alice, now = at(30)) =>
      inWs((tx) => tx.runs.claimNext(agentId, conversationId, now));
    expect(await claim()).toBeNull();

    // Queued out of creation order; two created in the same instant keep their insert order.
    const third = await queue(alice, conversationId, 12);
    const first = await queue(alice, conversationId, 10);
    const second = await queue(alice, conversationId, 10);
    const claimed = await claim();
    expect(claimed).toEqual({ ...first, status: 'running', startedAt: at(30), lastEventAt: at(30) });
    expect(await claim()).toBeNull();
    // Another agent in the same conversation is another lane.
    const bobs = await queue(bob, conversationId, 11);
    expect((await claim(bob))?.id).toBe(bobs.id);

    await inWs((tx) => tx.runs.update(first.id, { status: 'succeeded', finishedAt: at(31) }));
    expect((await claim(alice, at(32)))?.id).toBe(second.id);
    await inWs((tx) => tx.runs.update(second.id, { status: 'failed', finishedAt: at(33) }));
    expect(await claim(alice, at(34))).toMatchObject({ id: third.id, startedAt: at(34) });
    await inWs((tx) => tx.runs.update(third.id, { status: 'succeeded' }));
    expect(await claim()).toBeNull();
    expect(await inWs((tx) => tx.runs.claimNext('nonsense', conversationId, at(35)))).toBeNull();
  });

  it('tells whether a lane has a queued run, its running one and other lanes aside (T3)', async () => {
    const conversationId = await newConversation();
    const has = (agentId = alice) => inWs((tx) => tx.runs.hasQueued(agentId, conversationId));
    expect(await has()).toBe(false);
    const running = await queue(alice, conversationId, 40, 'running');
    await queue(alice, conversationId, 41, 'succeeded');
    expect(await has()).toBe(false);
    const next = await queue(alice, conversationId, 42);
    expect(await has()).toBe(true);
    // Another agent in the same conversation is another lane.
    expect(await has(bob)).toBe(false);
    await inWs((tx) => tx.runs.update(running.id, { status: 'succeeded' }));
    expect((await inWs((tx) => tx.runs.claimNext(alice, conversationId, at(43))))?.id).toBe(next.id);
    expect(await has()).toBe(false);
    expect(await inWs((tx) => tx.runs.hasQueued('nonsense', conversationId))).toBe(false);
  });

  it('lists runs by status, oldest first, and the running ones that have gone silent', async () => {
    const system0 = await system((tx) => tx.runs.listByStatus(['queued', 'running']));
    for (const run of system0) await inWs((tx) => tx.runs.update(run.id, { status: 'succeeded' }));

    const conversationId = await newConversation();
    const queued = await queue(alice, conversationId, 5);
    const early = await queue(bob, conversationId, 1, 'running');
    const late = await queue(alice, conversationId, 3, 'running');
    const neverStarted = await queue(bob, await newConversation(), 2, 'running');
    await inWs(async (tx) => {
      await tx.runs.update(early.id, { startedAt: at(1), lastEventAt: at(20) });
      await tx.runs.update(late.id, { startedAt: at(3), lastEventAt: null });
    });
    expect((await system((tx) => tx.runs.listByStatus(['running', 'queued']))).map((r) => r.id)).toEqual([
      early.id,
      neverStarted.id,
      late.id,
      queued.id,
    ]);
    expect((await system((tx) => tx.runs.listByStatus(['queued']))).map((r) => r.id)).toEqual([queued.id]);
    expect(await system((tx) => tx.runs.listByStatus([]))).toEqual([]);

    // Silence is measured from the last event, else the start, else the creation.
    const silent = async (minute: number) =>
      (await system((tx) => tx.runs.listSilentSince(at(minute)))).map((r) => r.id);
    expect(await silent(2)).toEqual([]);
    expect(await silent(3)).toEqual([neverStarted.id]);
    expect(await silent(4)).toEqual([neverStarted.id, late.id]);
    expect(await silent(21)).toEqual([early.id, neverStarted.id, late.id]);
  });

  it('T2, A12: requeues a running run only while it is still silent, once', async () => {
    const run = await queue(alice, await newConversation(), 1, 'running');
    await inWs((tx) => tx.runs.update(run.id, { startedAt: at(1), lastEventAt: at(5), liveness: 'stalled' }));

    // Its heartbeat is newer than the cut-off: it is alive, left alone.
    expect(await inWs((tx) => tx.runs.requeueIfSilent(run.id, at(5), at(30)))).toBe(false);
    expect(await inWs((tx) => tx.runs.findById(run.id))).toMatchObject({
      status: 'running',
      liveness: 'stalled',
    });

    expect(await inWs((tx) => tx.runs.requeueIfSilent(run.id, at(6), at(30)))).toBe(true);
    expect(await inWs((tx) => tx.runs.findById(run.id))).toMatchObject({
      status: 'queued',
      liveness: 'ok',
      lastEventAt: at(30),
    });
    // A second process that found it silent too takes nothing.
    expect(await inWs((tx) => tx.runs.requeueIfSilent(run.id, at(6), at(31)))).toBe(false);
    expect(await inWs((tx) => tx.runs.requeueIfSilent(MISSING, at(6), at(31)))).toBe(false);
  });
});
