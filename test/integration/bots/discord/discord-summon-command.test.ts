import { issueInvite } from '../../../../src/core/members/member-invites';
import { type DiscordHarness, openDiscordHarness } from '../../../support/discord-harness';
import { waitFor } from '../../../support/engine-harness';
import { RecordingChatEngine } from '../../../support/platform-contract';
import type { Interaction } from '../../../support/stand-ins/discord/discord-stand-in';

const EPHEMERAL = 64;

describe('Discord: /summon through the shared command service (P8)', () => {
  let h: DiscordHarness;
  afterEach(async () => {
    await h.close();
    expect(h.standIn.refusals).toEqual([]);
  });

  /** The ephemeral answer of an interaction: replied at once (type 4) or deferred (5) and filled in. */
  const answerOf = async (interaction: Interaction): Promise<string> => {
    await waitFor(
      async () =>
        interaction.callbacks[0]?.type === 4 ||
        (interaction.callbacks[0]?.type === 5 && interaction.original !== null),
    );
    const [callback] = interaction.callbacks;
    expect(callback?.data?.flags).toBe(EPHEMERAL);
    if (callback?.type === 4) return String(callback.data?.content);
    return interaction.original?.content ?? '';
  };

  it('P8: /summon is registered with /ask per guild; its subcommands are answered only to the sender, within 3 s', async () => {
    h = await openDiscordHarness({ engine: new RecordingChatEngine() });
    const registered = (h.standIn.commands.get(h.standIn.guildId) ?? []) as {
      name: string;
      options?: { name: string; type: number }[];
    }[];
    expect(registered.map((c) => c.name)).toEqual(['ask', 'summon']);
    expect(registered[1]?.options?.map((o) => [o.type, o.name])).toEqual([
      [1, 'help'],
      [1, 'link'],
      [1, 'unlink'],
      [1, 'agents'],
      [1, 'status'],
      [1, 'link-account'],
      [1, 'dedicated'],
      [1, 'while-running'],
    ]);

    const help = h.standIn.summon(h.people.mo, h.channel, 'help');
    const helpText = await answerOf(help);
    expect(help.callbacks.map((c) => c.type)).toEqual([4]);
    // The service's Slack bold becomes Discord's.
    expect(helpText).toContain('**/summon** commands:');
    expect(helpText).toContain('`link-account <code>`');

    const agents = await answerOf(h.standIn.summon(h.people.mo, h.channel, 'agents'));
    expect(agents).toContain('**engineer**');
    expect(await answerOf(h.standIn.summon(h.people.dana, h.channel, 'status'))).toContain(
      'No turns in progress.',
    );
    // Nothing was posted in the channel.
    expect(h.standIn.messagesIn(h.channel)).toEqual([]);
  });

  it('P8: a stranger links their account with a one-time code, then links a channel as admin; a member may not', async () => {
    h = await openDiscordHarness({ engine: new RecordingChatEngine() });
    const { stranger, mo } = h.people;
    expect(await answerOf(h.standIn.summon(stranger, h.channel, 'status'))).toContain(
      'You are not a member of this Summon workspace yet',
    );
    const invite = await issueInvite(h.store, {
      workspaceSlug: 'acme',
      nickname: 'sam',
      role: 'admin',
      now: new Date(),
    });
    expect(await answerOf(h.standIn.summon(stranger, h.channel, 'link-account', { code: invite.code }))).toBe(
      'Linked: you are @sam (admin) in Summon; mention an agent to start work.',
    );
    // A code works once; it never reaches the log.
    expect(
      await answerOf(h.standIn.summon(mo, h.channel, 'link-account', { code: invite.code })),
    ).not.toContain('Linked');
    expect(h.log()).not.toContain(invite.code);

    expect(await answerOf(h.standIn.summon(mo, h.unbound, 'link', { space: 'backend' }))).toBe(
      'Only owners and admins can do that; your role is member.',
    );
    expect(await answerOf(h.standIn.summon(stranger, h.unbound, 'link', { space: 'nowhere' }))).toContain(
      'There is no space "nowhere"',
    );
    expect(await answerOf(h.standIn.summon(stranger, h.unbound, 'link', { space: 'backend' }))).toBe(
      'This channel is now linked to space **backend**. Mention an agent to start.',
    );
    expect(
      await h.store.transaction(async (tx) => (await tx.channelBindings.find('discord', h.unbound))?.spaceId),
    ).toBeDefined();
    expect(await answerOf(h.standIn.summon(stranger, h.unbound, 'dedicated', { mode: 'on' }))).toContain(
      'Dedicated',
    );
    expect(await answerOf(h.standIn.summon(stranger, h.unbound, 'unlink'))).toBe(
      'This channel is no longer linked; agents will not answer here.',
    );
    expect(await h.store.transaction((tx) => tx.channelBindings.find('discord', h.unbound))).toBeNull();
  });

  it('a slow answer is deferred (ephemeral) within 3 s and filled in afterwards', async () => {
    h = await openDiscordHarness({ engine: new RecordingChatEngine(), commandDeferAfterMs: 0 });
    const status = h.standIn.summon(h.people.dana, h.channel, 'status');
    expect(await answerOf(status)).toContain('No approvals waiting.');
    expect(status.callbacks).toEqual([{ type: 5, data: { flags: EPHEMERAL } }]);
    expect(status.followUps).toEqual([]);
  });
});
