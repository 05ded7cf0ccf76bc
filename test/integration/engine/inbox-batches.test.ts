import { InboxRouter, type InboxRouterOptions } from '../../../src/core/ingest/inbox-router';
import type { InboxEntry } from '../../../src/core/model/inbox';
import type { ReceiveOutcome } from '../../../src/core/ports/chat-engine';
import type { InboundMessage } from '../../../src/core/ports/chat-platform';
import type { InboxDecoder } from '../../../src/core/ports/inbox-decoder';
import { silentLogger } from '../../../src/core/ports/logger';
import type { StoreTx } from '../../../src/core/ports/store';
import { INBOX_CLAIM, INBOX_MARK_ROUTED } from '../../../src/storage/store/repositories/inbox-repository';
import { recordMessages } from '../../support/logged-messages';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * T4, P6 (issue 12, item 5): the inbox router routes a burst in batches, several rows in one
 * transaction, each claimed as its thread's head once the one before it is marked routed. These
 * tests drive the real router on the real store; the routing it is given records each event
 * (P6's `processed_inbound_events`, the work that must never happen twice) and can be told to
 * fail for one event.
 */
describe.each(DATABASE_KINDS)('the inbox router, batching on %s', (kind) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase(kind);
  });
  afterEach(() => db.dispose());

  const entry = (eventId: string, threadKey: string, channelKey: string | null): InboxEntry => ({
    platform: 'terminal',
    eventId,
    threadKey,
    channelKey,
    payload: { eventId, thread: threadKey },
    receivedAt: new Date(),
  });

  /** Reads a row back as a message: its payload names the event and the thread. */
  const decoder: InboxDecoder = {
    async decode(record) {
      const payload = record.payload as { eventId: string; thread: string };
      const message: InboundMessage = {
        platform: 'terminal',
        eventId: payload.eventId,
        workspace: { slug: 'acme' },
        channelId: 'general',
        thread: payload.thread,
        topLevel: true,
        messageRef: payload.eventId,
        senderId: 'dana',
        text: 'hello',
        receivedAt: new Date(),
      };
      return { kind: 'route', message };
    },
  };

  interface Routing {
    /** Events in the order their routing committed (after-commit work, in order). */
    committed: string[];
    /** Events whose routing ran, committed or not. */
    attempts: Map<string, number>;
    /** The most routings run before the after-commit work of any of them: a batch's size. */
    mostInOneCommit: number;
    /** The transactions routing ran in, and those the router said had failed (`rolledBack`). */
    routedIn: Set<StoreTx>;
    rolledBack: StoreTx[];
    /** Rows routed in each transaction, in the order the transactions began. */
    rowsByTransaction: Map<StoreTx, number>;
  }

  const startRouter = (
    failing: { eventId: string; times: number } | null,
    batch: number,
    options: Partial<InboxRouterOptions> = { lanes: 1, pollMs: 50 },
  ) => {
    const seen: Routing = {
      committed: [],
      attempts: new Map(),
      mostInOneCommit: 0,
      routedIn: new Set(),
      rolledBack: [],
      rowsByTransaction: new Map(),
    };
    let routings = 0;
    const router = new InboxRouter<{ outcome: ReceiveOutcome }>(
      {
        store: db.database.store,
        clock: { now: () => new Date() },
        logger: silentLogger,
        route: async (tx: StoreTx, message: InboundMessage) => {
          const tries = (seen.attempts.get(message.eventId) ?? 0) + 1;
          seen.attempts.set(message.eventId, tries);
          routings += 1;
          seen.routedIn.add(tx);
          seen.rowsByTransaction.set(tx, (seen.rowsByTransaction.get(tx) ?? 0) + 1);
          seen.mostInOneCommit = Math.max(seen.mostInOneCommit, routings - seen.committed.length);
          if (!(await tx.processedEvents.record(message.platform, message.eventId))) {
            return { outcome: { kind: 'duplicate' } };
          }
          if (failing !== null && message.eventId === failing.eventId && tries <= failing.times) {
            throw new Error(`routing ${message.eventId} failed`);
          }
          return { outcome: { kind: 'refused', reason: 'nobody here' } };
        },
        after: async (message, routed) => {
          seen.committed.push(message.eventId);
          return routed.outcome;
        },
        rolledBack: (tx) => void seen.rolledBack.push(tx),
      },
      { ...options, batch, retryBaseMs: 1, maxAttempts: 3 },
    );
    router.use('terminal', decoder);
    return { router, seen };
  };

  const addAll = async (entries: InboxEntry[]) => {
    for (const e of entries) await db.database.store.addToInbox(e);
  };

  const pendingRows = () => db.database.store.transaction((tx) => tx.inbox.countPending());

  const outcomes = () =>
    db.database.store.transaction((tx) =>
      tx.query<{ event_id: string; outcome: string; attempts: number }>(
        'SELECT event_id, outcome, attempts FROM inbound_inbox ORDER BY seq',
      ),
    );

  const until = async (done: () => Promise<boolean>) => {
    while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('T4: routes a burst of one channel in batches, each row once, in the order stored, and a reply beside it', async () => {
    const burst = Array.from({ length: 11 }, (_, i) => entry(`top-${i}`, `t:top-${i}`, 'c:general'));
    await addAll([...burst.slice(0, 5), entry('reply-0', 't:top-0', null), ...burst.slice(5)]);
    const { router, seen } = startRouter(null, 4);
    router.start();
    await until(async () => (await pendingRows()) === 0);
    await router.close();

    // One channel's top-level messages in the order stored; the reply after its thread's head.
    expect(seen.committed.filter((id) => id.startsWith('top-'))).toEqual(burst.map((e) => e.eventId));
    expect(seen.committed.indexOf('reply-0')).toBeGreaterThan(seen.committed.indexOf('top-0'));
    expect(seen.committed).toHaveLength(12);
    // Four rows to a transaction: four routings ran before the first one's after-commit work.
    expect(seen.mostInOneCommit).toBe(4);
    // Each routed once: nothing rolled back, so every event's routing ran exactly once.
    expect([...seen.attempts.values()].every((n) => n === 1)).toBe(true);
    expect((await outcomes()).every((row) => row.outcome === 'refused')).toBe(true);
    expect(seen.rolledBack).toEqual([]);
  });

  it('T4: a lane whose batch was full is behind and routes its next batches larger (catchUpBatch), in order; a lane that caught up starts small again', async () => {
    const burst = channelMessages(30);
    await addAll(burst);
    const { router, seen } = startRouter(null, 4, { lanes: 1, pollMs: 3_600_000, catchUpBatch: 12 });
    router.start();
    await until(async () => (await pendingRows()) === 0);
    await router.settled();

    expect(seen.committed).toEqual(burst.map((e) => e.eventId));
    // The first batch found the backlog (4 of 4 asked); the next took 12 each, the last the rest.
    expect([...seen.rowsByTransaction.values()]).toEqual([4, 12, 12, 2]);

    // Caught up: the next burst's lane begins with the ordinary batch again.
    const later = Array.from({ length: 6 }, (_, i) => entry(`later-${i}`, `t:later-${i}`, 'c:general'));
    await addAll(later);
    router.kick();
    await until(async () => (await pendingRows()) === 0);
    await router.settled();
    await router.close();

    expect(seen.committed.slice(burst.length)).toEqual(later.map((e) => e.eventId));
    expect([...seen.rowsByTransaction.values()].slice(4)).toEqual([4, 2]);
    expect([...seen.attempts.values()].every((n) => n === 1)).toBe(true);
  });

  it('T4, P6: a batch that fails is rolled back whole; its rows are routed once each, and only the failing row counts a failed attempt', async () => {
    const burst = Array.from({ length: 8 }, (_, i) => entry(`top-${i}`, `t:top-${i}`, 'c:general'));
    await addAll(burst);
    // top-2 fails twice, then routes: the first batch (top-0 … top-3) is rolled back.
    const { router, seen } = startRouter({ eventId: 'top-2', times: 2 }, 4);
    router.start();
    await until(async () => (await pendingRows()) === 0);
    await router.close();

    // Every event committed once, in order: the rolled-back batch left nothing behind (P6's
    // record rolled back with it, so none is taken for a duplicate).
    expect(seen.committed).toEqual(burst.map((e) => e.eventId));
    const rows = await outcomes();
    expect(rows.map((row) => [row.event_id, row.outcome])).toEqual(burst.map((e) => [e.eventId, 'refused']));
    // Only top-2 records its failures; the rows before it were routed again, one at a time.
    expect(rows.find((row) => row.event_id === 'top-2')?.attempts).toBe(1);
    expect(rows.filter((row) => row.event_id !== 'top-2').every((row) => row.attempts === 0)).toBe(true);
    expect(seen.attempts.get('top-0')).toBe(2);
    expect(seen.attempts.get('top-2')).toBe(3);
    // T3: each failed transaction (the batch, then top-2 alone) was told, as the one routing ran in.
    expect(seen.rolledBack).toHaveLength(2);
    expect(seen.rolledBack.every((tx) => seen.routedIn.has(tx))).toBe(true);
  });

  /**
   * A router with four lanes and no poll while the test runs (every look is one it chose to
   * make), started on an empty inbox; its claims counted from then on (one statement each).
   */
  const startCountingClaims = async (batch: number) => {
    const { router, seen } = startRouter(null, batch, { lanes: 4, pollMs: 3_600_000 });
    router.start();
    await router.settled();
    const counted = { claims: 0 };
    recordMessages(db.database.dataSource, (query) => {
      if (query.includes(`EXECUTE ${INBOX_CLAIM.name}(`)) counted.claims += 1;
    });
    return { router, seen, counted };
  };

  const channelMessages = (count: number) =>
    Array.from({ length: count }, (_, i) => entry(`top-${i}`, `t:top-${i}`, 'c:general'));

  it('T4: a message at a time costs one claim: the lane that took it stops without looking again for nothing', async () => {
    const { router, seen, counted } = await startCountingClaims(16);
    const trickle = channelMessages(12);
    for (const e of trickle) {
      await router.ingest(e);
      await until(async () => seen.committed.includes(e.eventId));
      await router.settled();
    }
    await router.close();

    expect(seen.committed).toEqual(trickle.map((e) => e.eventId));
    // Its claim took fewer rows than it asked for and no row was stored since: nothing to find.
    expect(counted.claims).toBe(trickle.length);
  });

  it("T3, T4: a lane transaction's claim goes with its START TRANSACTION, one round trip, and its rows' routed marks with the COMMIT", async () => {
    const burst = channelMessages(8);
    await addAll(burst);
    const messages: string[] = [];
    recordMessages(db.database.dataSource, (query) => void messages.push(query));
    const { router, seen } = startRouter(null, 8);
    router.start();
    // Waited for without a statement of the test's own: every message recorded is the router's.
    while (seen.committed.length < burst.length) await new Promise((resolve) => setTimeout(resolve, 20));
    await router.settled();
    await router.close();

    expect(seen.committed).toEqual(burst.map((e) => e.eventId));
    const claims = messages.filter((m) => m.includes(`EXECUTE ${INBOX_CLAIM.name}(`));
    expect(claims.length).toBeGreaterThanOrEqual(1);
    // No round trip for a START TRANSACTION alone: each claim is its transaction's first message.
    expect(messages).not.toContain('START TRANSACTION');
    for (const claim of claims) expect(claim.startsWith('START TRANSACTION;')).toBe(true);
    // Each row's mark went with the next statement: the next row's P6 record, or the COMMIT.
    const marks = messages
      .flatMap((m) => m.split(';\n'))
      .filter((s) => s.startsWith(`EXECUTE ${INBOX_MARK_ROUTED.name}(`));
    expect(marks).toHaveLength(burst.length);
    expect(
      messages.some((m) => m.includes(`EXECUTE ${INBOX_MARK_ROUTED.name}(`) && m.endsWith('COMMIT')),
    ).toBe(true);
  });

  it('T4: a burst of one channel stored while its rows are routed starts no lane that would find nothing', async () => {
    const { router, seen, counted } = await startCountingClaims(4);
    const burst = channelMessages(40);
    // Stored one after another, each kicking the router while the channel's earlier rows are
    // being routed: their lane looks again after its batch, and a lane started for them would
    // find the channel's head taken.
    for (const e of burst) await router.ingest(e);
    await until(async () => (await pendingRows()) === 0);
    await router.settled();
    await router.close();

    expect(seen.committed).toEqual(burst.map((e) => e.eventId));
    expect([...seen.attempts.values()].every((n) => n === 1)).toBe(true);
    // A claim a batch of four, and a few more where a row came between a batch and the next
    // look. PGlite has one connection: each insert waits for the routing transaction before it,
    // so each claim finds the one row stored meanwhile, and never none.
    expect(counted.claims).toBeLessThanOrEqual(kind === 'pglite' ? burst.length : burst.length / 4 + 5);
  });
});
