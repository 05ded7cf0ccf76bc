import type { InboxEntry } from '../../../src/core/model/inbox';
import type { Platform } from '../../../src/core/model/platform';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

const entry = (
  eventId: string,
  threadKey: string,
  platform: Platform = 'slack',
  channelKey: string | null = null,
): InboxEntry => ({
  platform,
  eventId,
  threadKey,
  channelKey,
  payload: { text: `message ${eventId}` },
  receivedAt: new Date(),
});

describe.each(DATABASE_KINDS)('the inbound inbox on %s', (kind) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase(kind);
  });
  afterEach(() => db.dispose());

  const store = () => db.database.store;
  const add = (e: InboxEntry) => store().transaction((tx) => tx.inbox.add(e));
  const claim = (platforms: Platform[] = ['slack', 'discord'], now = new Date()) =>
    store().transaction(async (tx) => (await tx.inbox.claimRun(platforms, now, 1))[0] ?? null);
  const route = (id: string) => store().transaction((tx) => tx.inbox.markRouted(id, 'accepted', new Date()));
  const pending = () => store().transaction((tx) => tx.inbox.countPending());

  it('T4, P6: stores an event once by its de-duplication key; one already processed is not stored', async () => {
    expect(await add(entry('C1:1.0', 'slack:C1:1.0'))).toBe(true);
    expect(await add(entry('C1:1.0', 'slack:C1:1.0'))).toBe(false);
    // The same id on another platform is another event.
    expect(await add(entry('C1:1.0', 'discord:x', 'discord'))).toBe(true);
    // Processed before the inbox existed (or after its row was pruned): never stored again.
    await store().transaction((tx) => tx.processedEvents.record('slack', 'C1:2.0'));
    expect(await add(entry('C1:2.0', 'slack:C1:2.0'))).toBe(false);
    expect(await pending()).toBe(2);
    // The same statement on its own, outside a transaction: the write a front end's ack waits for.
    expect(await store().addToInbox(entry('C1:3.0', 'slack:C1:3.0'))).toBe(true);
    expect(await store().addToInbox(entry('C1:3.0', 'slack:C1:3.0'))).toBe(false);
    expect(await store().addToInbox(entry('C1:2.0', 'slack:C1:2.0'))).toBe(false);
    expect(await pending()).toBe(3);
  });

  it('T4, P6: a burst of acks is stored by group commit: each event once, a thread in the order given, a refused event failing alone', async () => {
    // Many at once, as a burst of deliveries calls it: later ones are grouped into one statement.
    const burst = Array.from({ length: 60 }, (_, i) => entry(`burst-${i}`, `slack:burst:${i % 3}`));
    await store().transaction((tx) => tx.processedEvents.record('slack', 'burst-7'));
    const bad: InboxEntry = {
      ...entry('burst-bad', 'slack:burst:bad'),
      payload: { text: 'nul \u0000 byte' },
    };
    const results = await Promise.all([
      ...burst.map((e) => store().addToInbox(e)),
      // The same event twice in the burst: stored once, as its first occurrence.
      store().addToInbox(entry('burst-3', 'slack:burst:0')),
      // jsonb refuses a NUL: that event's ack fails (Slack retries), the others of its batch do not.
      store()
        .addToInbox(bad)
        .then(
          () => 'stored',
          (error: unknown) => (error instanceof Error ? 'refused' : 'odd'),
        ),
    ]);
    expect(results.slice(0, 60)).toEqual(burst.map((e) => e.eventId !== 'burst-7'));
    expect(results[60]).toBe(false);
    expect(results[61]).toBe('refused');
    expect(await pending()).toBe(59);
    // Each thread's rows are handed out in the order they were given.
    const claimed: string[] = [];
    for (;;) {
      const next = await store().transaction(async (tx) => {
        const [row] = await tx.inbox.claimRun(['slack'], new Date(), 1);
        if (row !== undefined) await tx.inbox.markRouted(row.id, 'accepted', new Date());
        return row ?? null;
      });
      if (next === null) break;
      claimed.push(next.eventId);
    }
    for (const thread of [0, 1, 2]) {
      const expected = burst
        .filter((e) => e.threadKey === `slack:burst:${thread}` && e.eventId !== 'burst-7')
        .map((e) => e.eventId);
      expect(claimed.filter((id) => expected.includes(id))).toEqual(expected);
    }
  });

  it('T4: a row never tried is due at once, whatever the database’s clock said at its ack (the same millisecond, or a server clock ahead)', async () => {
    await add(entry('a1', 'thread-a'));
    await store().transaction((tx) =>
      tx.query(`UPDATE inbound_inbox SET available_at = now() + interval '1 hour'`),
    );
    expect((await claim(['slack'], new Date()))?.eventId).toBe('a1');
  });

  it('T4: hands out only the oldest unrouted row of each thread, oldest thread first', async () => {
    await add(entry('a1', 'thread-a'));
    await add(entry('b1', 'thread-b'));
    await add(entry('a2', 'thread-a'));
    const first = await claim();
    expect(first?.eventId).toBe('a1');
    expect(first?.payload).toEqual({ text: 'message a1' });
    // a1 is claimed but not routed (that transaction ended): a2 is not a head yet.
    expect((await claim())?.eventId).toBe('a1');
    await route(first?.id ?? '');
    expect((await claim())?.eventId).toBe('b1');
    await route((await claim())?.id ?? '');
    expect((await claim())?.eventId).toBe('a2');
    expect(await claim(['discord'])).toBeNull();
  });

  it('T4, M2: top-level messages of one channel are routed in order; a reply waits only for its thread', async () => {
    await add(entry('t1', 'thread-1', 'slack', 'channel-x'));
    await add(entry('t2', 'thread-2', 'slack', 'channel-x'));
    await add(entry('r1', 'thread-0'));
    const t1 = await claim();
    expect(t1?.eventId).toBe('t1');
    // While t1 waits for a retry, t2 (its own thread, but t1's channel) stays behind it; r1 does not.
    const now = new Date();
    await store().transaction((tx) =>
      tx.inbox.recordFailure(t1?.id ?? '', 'boom', new Date(now.getTime() + 60_000), now),
    );
    const r1 = await claim(['slack'], now);
    expect(r1?.eventId).toBe('r1');
    await route(r1?.id ?? '');
    expect(await claim(['slack'], now)).toBeNull();
    await route(t1?.id ?? '');
    expect((await claim())?.eventId).toBe('t2');
  });

  it('T4: a failed row waits for its retry and holds its thread; given up, the thread moves on', async () => {
    await add(entry('a1', 'thread-a'));
    await add(entry('a2', 'thread-a'));
    const a1 = await claim();
    const now = new Date();
    await store().transaction((tx) =>
      tx.inbox.recordFailure(a1?.id ?? '', 'boom', new Date(now.getTime() + 60_000), now),
    );
    expect(await claim(['slack'], now)).toBeNull();
    const later = await claim(['slack'], new Date(now.getTime() + 61_000));
    expect(later).toMatchObject({ eventId: 'a1', attempts: 1 });
    await store().transaction((tx) => tx.inbox.recordFailure(a1?.id ?? '', 'boom again', null, now));
    expect((await claim(['slack'], new Date(now.getTime() + 61_000)))?.eventId).toBe('a2');
    expect(await pending()).toBe(1);
  });

  it('T4: claims a run at once: the heads of several threads, and the rows after them in their thread and channel, oldest first; a row waiting for its retry holds back what follows it', async () => {
    await add(entry('a1', 'thread-a'));
    await add(entry('t1', 'thread-1', 'slack', 'channel-x'));
    await add(entry('a2', 'thread-a'));
    await add(entry('t2', 'thread-2', 'slack', 'channel-x'));
    await add(entry('b1', 'thread-b'));
    await add(entry('d1', 'thread-d', 'discord'));
    await add(entry('t3', 'thread-3', 'slack', 'channel-x'));
    const claimIds = (platforms: Platform[], now: Date) =>
      store().transaction(async (tx) => (await tx.inbox.claimRun(platforms, now, 10)).map((r) => r.eventId));
    expect(await claimIds(['slack'], new Date())).toEqual(['a1', 't1', 'a2', 't2', 'b1', 't3']);
    // t2 failed and waits for its retry: t3, after it in channel-x, waits too; the rest goes.
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const t2 = (await store().transaction((tx) => tx.inbox.claimRun(['slack'], now, 10)))[3];
    expect(t2?.eventId).toBe('t2');
    await store().transaction((tx) => tx.inbox.recordFailure(t2?.id ?? '', 'boom', later, now));
    const run = await store().transaction(async (tx) => {
      const rows = await tx.inbox.claimRun(['slack'], now, 10);
      for (const row of rows) await tx.inbox.markRouted(row.id, 'accepted', now);
      return rows.map((r) => r.eventId);
    });
    expect(run).toEqual(['a1', 't1', 'a2', 'b1']);
    expect(await claimIds(['slack'], now)).toEqual([]);
    // Once due, t2 and then t3, in the order they came; d1 once its platform is decoded.
    expect(await claimIds(['slack', 'discord'], later)).toEqual(['t2', 'd1', 't3']);
    // At most `limit`.
    expect((await store().transaction((tx) => tx.inbox.claimRun(['slack'], later, 1))).length).toBe(1);
  });

  it('T3: marking a row that is not there fails the transaction on the server, and nothing of it stays', async () => {
    await add(entry('a1', 'thread-a'));
    const attempt = store().transaction(async (tx) => {
      const [head] = await tx.inbox.claimRun(['slack'], new Date(), 1);
      await tx.inbox.markRouted(head?.id ?? '', 'accepted', new Date());
      // Owed: sent with the COMMIT, where the missing row is found.
      await tx.inbox.markRouted('00000000-0000-4000-8000-000000000000', 'accepted', new Date());
    });
    await expect(attempt).rejects.toThrow('No inbox row with id 00000000-0000-4000-8000-000000000000.');
    expect(await pending()).toBe(1);
    await expect(
      store().transaction((tx) => tx.inbox.markRouted('not-an-id', 'accepted', new Date())),
    ).rejects.toThrow('No inbox row with id not-an-id.');
  });

  it('deletes rows routed before a moment, never unrouted ones', async () => {
    await add(entry('a1', 'thread-a'));
    await add(entry('b1', 'thread-b'));
    await route((await claim())?.id ?? '');
    const removed = await store().transaction((tx) => tx.inbox.prune(new Date(Date.now() + 1000)));
    expect(removed).toBe(1);
    expect(await pending()).toBe(1);
  });
});

describe('the inbound inbox under concurrent routers on postgres', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('postgres');
  });
  afterAll(() => db.dispose());

  it('T4: a head held by one transaction is skipped by another, and so is the rest of its thread; a rollback (a crash) hands it out again', async () => {
    const store = db.database.store;
    for (const [id, thread] of [
      ['a1', 'thread-a'],
      ['a2', 'thread-a'],
      ['b1', 'thread-b'],
    ] as const) {
      await store.transaction((tx) => tx.inbox.add(entry(id, thread)));
    }
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let claimedFirst: string | undefined;
    const first = store
      .transaction(async (tx) => {
        claimedFirst = (await tx.inbox.claimRun(['slack'], new Date(), 1))[0]?.eventId;
        await held;
        throw new Error('the process died mid-routing');
      })
      .catch((error: Error) => error.message);
    while (claimedFirst === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(claimedFirst).toBe('a1');
    // Not a2 (a1 is still unrouted), not a1 (locked): thread b's head.
    const second = await store.transaction((tx) => tx.inbox.claimRun(['slack'], new Date(), 5));
    expect(second.map((r) => r.eventId)).toEqual(['b1']);
    release();
    expect(await first).toBe('the process died mid-routing');
    const again = await store.transaction((tx) => tx.inbox.claimRun(['slack'], new Date(), 5));
    expect(again.map((r) => r.eventId)).toEqual(['a1', 'a2', 'b1']);
  });
});
