import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { DATABASE_KINDS } from '../../../support/test-database';

type Query = { query: <R>(sql: string, params?: unknown[]) => Promise<R[]> };

describe.each(DATABASE_KINDS)('T4: Discord messages through the inbox on %s', (database) => {
  let h: DiscordHarness;
  const runner = new ScriptedRunner({}, (request) => [
    { type: 'final', text: `${request.agent.name} on: ${request.prompt.slice(-12)}` },
  ]);

  beforeEach(async () => {
    // The first process takes messages in and stops before it routes any.
    h = await openDiscordHarness({ runner, database, inbox: { lanes: 0 } });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const sql = <R>(text: string, params: unknown[] = []) =>
    h.store.transaction((tx) => (tx as unknown as Query).query<R>(text, params));
  const outcomes = () =>
    sql<{ event_id: string; outcome: string | null }>(
      'SELECT event_id, outcome FROM inbound_inbox ORDER BY seq',
    );

  it('messages stored before a restart are routed after it, once each and in the order said; the back-fill cursor (P11) moves only with the routing', async () => {
    const said = [
      h.standIn.say(h.people.dana, h.channel, '@engineer first task'),
      h.standIn.say(h.people.mo, h.unbound, '@engineer not here'),
      h.standIn.say(h.people.mo, h.channel, '@qa second task'),
      h.standIn.say(h.people.dana, h.channel, '@engineer third task'),
    ];
    await waitFor(async () => (await outcomes()).length === said.length);
    await h.frontEnd.idle();
    // Stored, not routed: no run, nothing answered, the back-fill cursor not moved.
    expect((await outcomes()).map((o) => o.outcome)).toEqual([null, null, null, null]);
    expect(await h.runs()).toHaveLength(0);
    expect(await h.store.transaction((tx) => tx.channelCursors.listSince('discord', new Date(0)))).toEqual(
      [],
    );

    await h.restart({ inbox: { pollMs: 50 } });
    const runs = await h.settled(3, 30_000);
    await waitFor(async () => (await outcomes()).every((o) => o.outcome !== null));
    // P1: the unbound channel's message is dropped; the others accepted, in the order said.
    expect((await outcomes()).map((o) => [o.event_id, o.outcome])).toEqual([
      [said[0]?.id, 'accepted'],
      [said[1]?.id, 'dropped'],
      [said[2]?.id, 'accepted'],
      [said[3]?.id, 'accepted'],
    ]);
    const byCreation = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const triggers = await h.store.transaction(async (tx) =>
      Promise.all(byCreation.map(async (r) => (await tx.messages.findById(r.triggerMessageId ?? ''))?.text)),
    );
    expect(triggers).toEqual(['@engineer first task', '@qa second task', '@engineer third task']);
    for (const message of [said[0], said[2], said[3]]) {
      if (message === undefined) throw new Error('missing message');
      await h.waitInThread(message, (m) => m.content.includes(' on: '));
      expect(h.thread(message).filter((m) => m.content.includes(' on: '))).toHaveLength(1);
    }
    // P11: the cursor moved with the routing.
    const cursors = await h.store.transaction((tx) => tx.channelCursors.listSince('discord', new Date(0)));
    expect(cursors.find((c) => c.channelId === h.channel)?.lastMessageId).toBe(said[3]?.id);
    expect(await h.runs()).toHaveLength(3);
    expect(await outcomes()).toHaveLength(said.length);
  });
});
