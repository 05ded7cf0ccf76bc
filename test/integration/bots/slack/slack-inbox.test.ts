import { waitFor } from '../../../support/engine-harness';
import { replies, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';
import { DATABASE_KINDS } from '../../../support/test-database';

type Query = { query: <R>(sql: string, params?: unknown[]) => Promise<R[]> };

/**
 * Three threads (a top-level line and three replies naming a member) and two mentions, in the
 * harness's dedicated space: every message starts one turn (M3).
 */
const THREADS = 3;
const REPLIES = 3;
const MENTIONS = 2;

describe.each(DATABASE_KINDS)('T4: Slack ingest through the inbox on %s', (database) => {
  let h: SlackHarness;
  let runner: ScriptedRunner;

  beforeEach(async () => {
    runner = new ScriptedRunner({}, replies('on it'));
    // The first process stores and acknowledges, and stops before it routes anything.
    h = await openSlackHarness({ runner, database, inbox: { lanes: 0 } });
  });
  afterEach(() => h.close());

  const sql = <R>(text: string, params: unknown[] = []) =>
    h.store.transaction((tx) => (tx as unknown as Query).query<R>(text, params));
  const inboxRows = async () =>
    Number((await sql<{ n: string }>('SELECT count(*)::text AS n FROM inbound_inbox'))[0]?.n);
  const pending = () => h.store.transaction((tx) => tx.inbox.countPending());

  it('a burst acknowledged before routing is routed after the restart: each message once, in order per thread; a retried delivery is one row and one run', async () => {
    const threads = Array.from({ length: THREADS }, (_, t) => {
      const root = h.standIn.addPersonMessage(CHANNEL, null);
      const events = [
        eventFrom('message-channel', { ts: root, user: PEOPLE.dana.userId, text: `thread ${t} starts` }),
      ];
      for (let r = 0; r < REPLIES; r += 1) {
        const ts = h.standIn.addPersonMessage(CHANNEL, root);
        events.push(
          eventFrom('message-thread-reply', {
            ts,
            thread_ts: root,
            user: PEOPLE.mia.userId,
            text: `<@${PEOPLE.dana.userId}> note ${t}.${r}`,
          }),
        );
      }
      return { root, events };
    });
    const mentions = Array.from({ length: MENTIONS }, (_, m) => {
      const ts = h.standIn.addPersonMessage(CHANNEL, null);
      return eventFrom('app-mention', {
        ts,
        user: PEOPLE.dana.userId,
        text: `<@U0BOT00001> @engineer task ${m}`,
      });
    });

    // The burst: threads and mentions at once, each thread's messages one after another.
    const statuses = await Promise.all([
      ...threads.map(async ({ events }) => {
        const seen: number[] = [];
        for (const event of events) seen.push((await h.deliver(event)).status);
        return seen;
      }),
      ...mentions.map(async (event) => [
        (await h.deliver(event)).status,
        (await h.deliver(event, { retryNum: 1 })).status,
      ]),
    ]);
    expect(statuses.flat().every((status) => status === 200)).toBe(true);
    const total = THREADS * (REPLIES + 1) + MENTIONS;
    // P6: each message is one row (the retries found theirs); nothing was routed yet.
    expect(await inboxRows()).toBe(total);
    expect(await pending()).toBe(total);
    expect(await h.runs()).toHaveLength(0);
    expect(await sql('SELECT id FROM messages')).toHaveLength(0);

    await h.restart({ inbox: { pollMs: 50 } });
    await waitFor(async () => (await pending()) === 0);
    const runs = await waitFor(async () => {
      const all = await h.runs();
      return all.length === total && all.every((r) => r.status === 'succeeded') ? all : null;
    });
    // One turn per message: no message was routed twice.
    expect(new Set(runs.map((r) => r.triggerMessageId)).size).toBe(total);

    // Each message stored once, a thread's in the order they were said, mentions read as nicknames.
    for (const [t, { root }] of threads.entries()) {
      const texts = await sql<{ text: string }>(
        `SELECT m.text FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE c.platform_thread_ref = $1 AND m.author_kind = 'person' ORDER BY m.seq`,
        [`slack:${CHANNEL}:${root}`],
      );
      expect(texts.map((m) => m.text)).toEqual([
        `thread ${t} starts`,
        ...Array.from({ length: REPLIES }, (_, r) => `@dana note ${t}.${r}`),
      ]);
    }
    const people = await sql<{ n: string }>(
      `SELECT count(*)::text AS n FROM messages WHERE author_kind = 'person'`,
    );
    expect(Number(people[0]?.n)).toBe(total);
    await waitFor(async () => runner.requests.length === total);

    // A late retry of a routed delivery: acknowledged, not stored, nothing runs again.
    expect((await h.deliver(mentions[0] ?? {}, { retryNum: 2 })).status).toBe(200);
    expect(await inboxRows()).toBe(total);
    await h.engine?.inboxSettled();
    expect(await h.runs()).toHaveLength(total);
    expect(runner.requests).toHaveLength(total);
  });
});
