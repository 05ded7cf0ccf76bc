import WebSocket from 'ws';
import { waitFor } from '../../../support/engine-harness';
import {
  dispatchProblems,
  FIXTURES,
  type FixtureName,
  fixture,
} from '../../../support/stand-ins/discord/discord-fixtures';
import { BOT_TOKEN, DiscordStandIn } from '../../../support/stand-ins/discord/discord-stand-in';

/**
 * The stand-in's gateway sends the recorded payloads, filled in: a plain websocket client
 * identifies and collects every dispatch, as discord.js receives it.
 */
describe('the Discord stand-in dispatches the recorded payloads of test/fixtures/discord', () => {
  let standIn: DiscordStandIn;
  let socket: WebSocket;
  const received: { t: string; d: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    standIn = await new DiscordStandIn().start();
    socket = new WebSocket(standIn.wsUrl);
    socket.on('message', (raw) => {
      const payload = JSON.parse(raw.toString()) as { op: number; t?: string; d: Record<string, unknown> };
      if (payload.op === 10)
        socket.send(
          JSON.stringify({
            op: 2,
            d: {
              token: BOT_TOKEN,
              intents: 37377,
              properties: { os: 'linux', browser: 'test', device: 'test' },
            },
          }),
        );
      if (payload.op === 0 && payload.t !== undefined) received.push({ t: payload.t, d: payload.d });
    });
  });
  afterAll(async () => {
    socket.close();
    await standIn.close();
  });

  /** The next dispatch of `t` after `from`, once it arrived. */
  const next = (t: string, from: number) =>
    waitFor(async () => received.slice(from).find((e) => e.t === t)?.d ?? null, 5000);

  /** Every field the recording has is there (filled in), and the whole passes Discord's description. */
  const expectRecorded = (name: FixtureName, d: Record<string, unknown>) => {
    expect(Object.keys(d)).toEqual(
      expect.arrayContaining(Object.keys(fixture(name)).filter((k) => k !== 'nonce')),
    );
    expect(dispatchProblems(FIXTURES[name].event, d)).toEqual([]);
  };

  it('READY and GUILD_CREATE on IDENTIFY, then MESSAGE_CREATE in a channel, a thread, from a webhook and in a DM, then INTERACTION_CREATE', async () => {
    const ready = await next('READY', 0);
    expectRecorded('ready', ready);
    expect((ready.user as { id: string }).id).toBe(standIn.applicationId);
    const guild = await next('GUILD_CREATE', 0);
    expectRecorded('guild-create', guild);
    expect(guild.id).toBe(standIn.guildId);
    // Recorded fields the stand-in does not set arrive as recorded.
    expect(guild.max_video_channel_users).toBe(fixture('guild-create').max_video_channel_users);

    const channel = standIn.addTextChannel('general');
    const person = { id: standIn.newId(), username: 'person' };
    let from = received.length;
    const said = standIn.say(person, channel, 'hello');
    const inChannel = await next('MESSAGE_CREATE', from);
    expectRecorded('message-create-guild', inChannel);
    expect([inChannel.id, inChannel.content, inChannel.channel_type]).toEqual([said.id, 'hello', 0]);
    expect(inChannel.member).toMatchObject({ pending: false, roles: [] });

    from = received.length;
    const thread = standIn.startThreadAs(said, 'a thread');
    standIn.say(person, thread, 'in the thread');
    const inThread = await waitFor(
      async () =>
        received.slice(from).find((e) => e.t === 'MESSAGE_CREATE' && e.d.channel_id === thread) ?? null,
    );
    expectRecorded('message-create-thread', inThread.d);
    expect(inThread.d.channel_type).toBe(11);

    from = received.length;
    const dm = standIn.dmChannelWith(person.id);
    standIn.say(person, dm, 'privately');
    const inDm = await next('MESSAGE_CREATE', from);
    expectRecorded('message-create-dm', inDm);
    expect(inDm).not.toHaveProperty('guild_id');
    expect(inDm).not.toHaveProperty('member');

    from = received.length;
    const hook = await fetch(`${standIn.apiUrl}/v10/channels/${channel}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bot ${BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'persona' }),
    }).then((r) => r.json() as Promise<{ id: string; token: string }>);
    await fetch(`${standIn.apiUrl}/v10/webhooks/${hook.id}/${hook.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'as a persona', username: 'engineer' }),
    });
    const fromHook = await next('MESSAGE_CREATE', from);
    expectRecorded('message-create-webhook', fromHook);
    expect([fromHook.webhook_id, (fromHook.author as { username: string }).username]).toEqual([
      hook.id,
      'engineer',
    ]);

    from = received.length;
    standIn.click(person, said, 'approval:approve:1');
    const click = await next('INTERACTION_CREATE', from);
    expectRecorded('interaction-button', click);
    expect(click.data).toEqual({ custom_id: 'approval:approve:1', component_type: 2 });
    expect((click.channel as { id: string }).id).toBe(channel);

    standIn.commands.set(standIn.guildId, [{ id: standIn.newId(), name: 'ask' }]);
    from = received.length;
    standIn.command(person, channel, [{ name: 'agent', value: 'eng', focused: true }], 'autocomplete');
    expectRecorded('interaction-autocomplete', await next('INTERACTION_CREATE', from));
    from = received.length;
    standIn.command(person, channel, [
      { name: 'agent', value: 'engineer' },
      { name: 'prompt', value: 'hi' },
    ]);
    expectRecorded('interaction-command', await next('INTERACTION_CREATE', from));
  });
});
