import { AckPrecedence } from '../../../src/core/ingest/ack-precedence';
import { InboxRouter } from '../../../src/core/ingest/inbox-router';
import type { InboxEntry } from '../../../src/core/model/inbox';
import type { ReceiveOutcome } from '../../../src/core/ports/chat-engine';
import type { InboundMessage } from '../../../src/core/ports/chat-platform';
import type { InboxDecoder } from '../../../src/core/ports/inbox-decoder';
import { silentLogger } from '../../../src/core/ports/logger';
import type { StoreTx } from '../../../src/core/ports/store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

/**
 * T4, acks first (issue 12, item 4): the inbox router waits while acks are coming in and
 * routes once they pause; its guard routes anyway after `maxDeferMs`, so acks that never pause
 * delay routing but never stop it. The real router on the real store; an ack is held "on its
 * way" through the router's own `AckPrecedence`, as `ingest` holds it during its write.
 */
describe.each(DATABASE_KINDS)('the inbox router, acks first, on %s', (kind) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await openTestDatabase(kind);
  });
  afterEach(() => db.dispose());

  const clock = { now: () => new Date() };

  const entry = (eventId: string, threadKey: string, channelKey: string | null): InboxEntry => ({
    platform: 'terminal',
    eventId,
    threadKey,
    channelKey,
    payload: { eventId, thread: threadKey },
    receivedAt: new Date(),
  });

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

  const startRouter = (precedence: AckPrecedence, options: { lanes: number; batch: number }) => {
    const committed: string[] = [];
    const attempts = new Map<string, number>();
    const router = new InboxRouter<{ outcome: ReceiveOutcome }>(
      {
        store: db.database.store,
        clock,
        logger: silentLogger,
        precedence,
        route: async (tx: StoreTx, message: InboundMessage) => {
          attempts.set(message.eventId, (attempts.get(message.eventId) ?? 0) + 1);
          // P6: the work that must happen once.
          if (!(await tx.processedEvents.record(message.platform, message.eventId))) {
            return { outcome: { kind: 'duplicate' } };
          }
          return { outcome: { kind: 'refused', reason: 'nobody here' } };
        },
        after: async (message, routed) => {
          committed.push(message.eventId);
          return routed.outcome;
        },
      },
      { ...options, pollMs: 50 },
    );
    router.use('terminal', decoder);
    return { router, committed, attempts };
  };

  const pendingRows = () => db.database.store.transaction((tx) => tx.inbox.countPending());

  const until = async (done: () => Promise<boolean>) => {
    while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  /** Two channels' top-level bursts and a reply in each channel's first thread, interleaved. */
  const burst = () => {
    const entries: InboxEntry[] = [];
    for (let i = 0; i < 12; i += 1) {
      entries.push(entry(`a-${i}`, `t:a-${i}`, 'c:a'));
      entries.push(entry(`b-${i}`, `t:b-${i}`, 'c:b'));
      if (i === 3) entries.push(entry('a-reply', 't:a-0', null), entry('b-reply', 't:b-0', null));
    }
    return entries;
  };

  const expectRoutedInOrder = (committed: string[], entries: InboxEntry[]) => {
    expect([...committed].sort()).toEqual(entries.map((e) => e.eventId).sort());
    for (const channel of ['a', 'b']) {
      const tops = committed.filter((id) => id.startsWith(`${channel}-`) && id !== `${channel}-reply`);
      expect(tops).toEqual(Array.from({ length: 12 }, (_, i) => `${channel}-${i}`));
      expect(committed.indexOf(`${channel}-reply`)).toBeGreaterThan(committed.indexOf(`${channel}-0`));
    }
  };

  it('T4: while an ack is on its way nothing is routed; once acks pause, the burst is routed whole, each row once, in order per thread and channel', async () => {
    // A guard far beyond the test: only the pause lets routing go.
    const precedence = new AckPrecedence(clock, { quietMs: 5, maxDeferMs: 3_600_000 });
    const entries = burst();
    const onItsWay = precedence.begin();
    for (const e of entries) await db.database.store.addToInbox(e);
    const { router, committed, attempts } = startRouter(precedence, { lanes: 4, batch: 4 });
    router.start();
    // The lanes started and found rows, and wait: an ack is still being written.
    for (let i = 0; i < 10; i += 1) {
      router.kick();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(committed).toEqual([]);
    expect(await pendingRows()).toBe(entries.length);

    onItsWay();
    await until(async () => (await pendingRows()) === 0);
    await router.close();
    expectRoutedInOrder(committed, entries);
    expect([...attempts.values()].every((n) => n === 1)).toBe(true);
  });

  it('T4: acks that never pause delay routing but never stop it: the guard routes every row, in order per thread and channel', async () => {
    const precedence = new AckPrecedence(clock, { quietMs: 5, maxDeferMs: 30 });
    const entries = burst();
    // An ack on its way for the whole test: routing never sees a pause.
    const onItsWay = precedence.begin();
    for (const e of entries) await db.database.store.addToInbox(e);
    const { router, committed, attempts } = startRouter(precedence, { lanes: 4, batch: 4 });
    router.start();
    await until(async () => (await pendingRows()) === 0);
    await router.close();
    onItsWay();
    expectRoutedInOrder(committed, entries);
    expect([...attempts.values()].every((n) => n === 1)).toBe(true);
  });

  it('T4: acks taken in through the router while it routes leave every row routed once, in order', async () => {
    // The router's own precedence (its defaults but a short guard); events stored by `ingest`.
    const committed: string[] = [];
    const router = new InboxRouter<{ outcome: ReceiveOutcome }>(
      {
        store: db.database.store,
        clock,
        logger: silentLogger,
        route: async (tx: StoreTx, message: InboundMessage) =>
          (await tx.processedEvents.record(message.platform, message.eventId))
            ? { outcome: { kind: 'refused', reason: 'nobody here' } }
            : { outcome: { kind: 'duplicate' } },
        after: async (message, routed) => {
          committed.push(message.eventId);
          return routed.outcome;
        },
      },
      { lanes: 4, batch: 4, pollMs: 50, maxDeferMs: 200 },
    );
    router.use('terminal', decoder);
    router.start();
    const entries = burst();
    // Every event given twice, as a retry would (P6: stored once).
    await Promise.all(entries.flatMap((e) => [router.ingest(e), router.ingest(e)]));
    await until(async () => (await pendingRows()) === 0);
    await router.settled();
    await router.close();
    expectRoutedInOrder(committed, entries);
  });
});
