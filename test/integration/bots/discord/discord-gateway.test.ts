import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';

describe('Discord front end: reconnects (P6, P11)', () => {
  let h: DiscordHarness;
  const runner = new ScriptedRunner({}, (request) => [
    { type: 'final', text: `${request.agent.name} on: ${request.prompt.slice(-20)}` },
  ]);

  beforeEach(async () => {
    h = await openDiscordHarness({ runner });
  });
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  const lines = (what: string) =>
    h
      .log()
      .split('\n')
      .filter((l) => l.includes(what)).length;

  it('P6: a MESSAGE_CREATE replayed after a RESUME runs once', async () => {
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content.startsWith('engineer on:'));
    await h.settled(1);
    // Discord asks for a reconnect and, on the resume, replays events the client already had.
    h.standIn.gateway.requestReconnect({ replayLast: 10 });
    await waitFor(async () => lines('Discord session resumed') === 1);
    await h.frontEnd.idle();
    expect(h.standIn.gateway.log).toContain(
      'replayed MESSAGE_CREATE,THREAD_CREATE,MESSAGE_CREATE,MESSAGE_CREATE',
    );
    expect(await h.runs()).toHaveLength(1);
    expect(h.thread(asked).filter((m) => m.content.startsWith('engineer on:'))).toHaveLength(1);
  });

  it('P6: a message handled just before a crash (its cursor not yet moved) is fetched again after the restart and runs once', async () => {
    const before = h.standIn.say(h.people.dana, h.channel, 'good morning');
    await waitFor(async () => lines(`"messageId":"${before.id}"`) === 1);
    const asked = h.standIn.say(h.people.dana, h.channel, '@engineer fix the login bug');
    await h.waitInThread(asked, (m) => m.content.startsWith('engineer on:'));
    await h.settled(1);
    // The crash came between the core's transaction and the cursor's: the cursor is one behind.
    await h.store.transaction(async (tx) => {
      const [cursor] = await tx.channelCursors.listSince('discord', new Date(0));
      expect(cursor?.lastMessageId).toBe(asked.id);
    });
    await h.db.database.store.transaction((tx) =>
      tx.query('UPDATE platform_channel_cursors SET last_message_id = $1', [before.id]),
    );
    await h.restart();
    // The new process has no cache: the back-fill hands the message to the core again.
    await waitFor(async () => lines(`"messageId":"${asked.id}","outcome":"duplicate"`) === 1);
    expect(await h.runs()).toHaveLength(1);
    expect(h.thread(asked).filter((m) => m.content.startsWith('engineer on:'))).toHaveLength(1);
  });

  it('P11: a dropped connection Discord will not resume loses nothing: three messages of the gap are back-filled, in order, each answered once', async () => {
    const first = h.standIn.say(h.people.dana, h.channel, '@engineer first');
    await h.waitInThread(first, (m) => m.content.startsWith('engineer on:'));
    await h.settled(1);

    h.standIn.gateway.drop({ resumable: false });
    // Said while Summon is away: Discord never dispatches these to it.
    const gap = [
      h.standIn.say(h.people.dana, h.channel, '@engineer one'),
      h.standIn.say(h.people.mo, h.channel, '@qa two'),
      h.standIn.say(h.people.dana, h.channel, '@engineer three'),
    ];
    h.standIn.gateway.restore();
    const runs = await h.settled(4, 30_000);
    expect(h.standIn.gateway.log).toContain('resume refused');
    expect(lines('Discord session ready')).toBe(2);
    for (const message of gap) {
      await h.waitInThread(message, (m) => m.content.includes(' on: '));
      expect(h.thread(message).filter((m) => m.content.includes(' on: '))).toHaveLength(1);
    }
    // In order: the runs were created as the messages were said.
    const byCreation = [...runs].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const triggers = await h.store.transaction(async (tx) =>
      Promise.all(byCreation.map(async (r) => (await tx.messages.findById(r.triggerMessageId ?? ''))?.text)),
    );
    expect(triggers).toEqual(['@engineer first', '@engineer one', '@qa two', '@engineer three']);
    // Back-filled through GET /channels/{id}/messages?after=<the last message processed>.
    const fetches = h.standIn.calls.filter((c) => c.method === 'GET' && c.path.endsWith('/messages'));
    expect(fetches.some((c) => c.query.after === first.id)).toBe(true);
    // A second reconnect back-fills nothing new and runs nothing twice.
    h.standIn.gateway.drop({ resumable: false });
    h.standIn.gateway.restore();
    await waitFor(async () => lines('Discord back-fill done') === 3);
    await h.frontEnd.idle();
    expect(await h.runs()).toHaveLength(4);
  });

  it('P11: a resumable drop gets the gap replayed by the gateway, and the back-fill is not needed', async () => {
    const first = h.standIn.say(h.people.dana, h.channel, '@engineer first');
    await h.waitInThread(first, (m) => m.content.startsWith('engineer on:'));
    await h.settled(1);
    h.standIn.gateway.drop({ resumable: true });
    const during = h.standIn.say(h.people.mo, h.channel, '@qa during the gap');
    h.standIn.gateway.restore();
    await h.waitInThread(during, (m) => m.content.startsWith('qa on:'));
    await h.settled(2);
    expect(lines('Discord session ready')).toBe(1);
  });
});
