import {
  discordNoteBadge,
  discordThreadLink,
} from '../../../../src/bots/discord/outbound/discord-note-badge';
import { renderWebhookBodies } from '../../../../src/bots/discord/outbound/discord-render';

const THREAD = 'discord:111111111111111111:222222222222222222:333333333333333333';

describe('N1–N3: a Discord note names and links the conversation it came from', () => {
  it('folded: the title, linked to the source thread (a thread is a channel)', () => {
    expect(discordNoteBadge({ title: 'login bug', thread: THREAD, sender: 'qa' }, false)).toBe(
      'in [“login bug”](https://discord.com/channels/111111111111111111/333333333333333333)',
    );
  });

  it('N2: open, it also says who sent the note', () => {
    expect(discordNoteBadge({ title: 'login bug', thread: null, sender: 'qa' }, true)).toBe(
      'from **qa** in “login bug”',
    );
  });

  it('N3: a conversation that is gone, or a direct message, is plain text; an unknown title is left out', () => {
    const dm = 'discord:111111111111111111:444444444444444444:444444444444444444';
    expect(discordNoteBadge({ title: 'ask', thread: dm, sender: 'qa' }, false)).toBe('in “ask”');
    expect(discordNoteBadge({ title: null, thread: null, sender: 'qa' }, false)).toBeNull();
    expect(discordNoteBadge({ title: null, thread: THREAD, sender: 'qa' }, false)).toContain(
      '[source conversation](https://discord.com/channels/',
    );
  });

  it('N3: the link a paired relay’s badge redirects to is the guild thread’s; a DM or another id has none', () => {
    expect(discordThreadLink(THREAD)).toBe(
      'https://discord.com/channels/111111111111111111/333333333333333333',
    );
    expect(discordThreadLink('discord:111111111111111111:444444444444444444:444444444444444444')).toBeNull();
    expect(discordThreadLink('slack:C0GENERAL1:1700000000.000100')).toBeNull();
  });

  it('markdown in a title cannot end the link early or ping anyone', () => {
    const badge = discordNoteBadge(
      { title: 'x](https://evil) **@everyone**', thread: THREAD, sender: 'qa' },
      false,
    );
    expect(badge).toContain('x\\]\\(https://evil\\)');
    expect(badge?.match(/\]\(/g)).toHaveLength(1);
  });

  it('the note card carries the badge after its row; allowed_mentions stays empty', () => {
    const [body] = renderWebhookBodies(
      {
        as: { kind: 'agent', name: 'architect', avatarUrl: null },
        content: {
          kind: 'note',
          card: {
            messageId: 'm-1',
            row: 'note from qa · answered below',
            text: 'check the login flow',
            open: false,
            source: { title: 'login bug', thread: THREAD, sender: 'qa' },
          },
        },
      },
      [],
    );
    expect(body?.content).toBe(
      '📝 note from qa · answered below · in [“login bug”](https://discord.com/channels/111111111111111111/333333333333333333)',
    );
    expect(body?.allowed_mentions).toEqual({ parse: [], users: [] });
  });
});
