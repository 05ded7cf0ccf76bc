import { whoIsAdmitted } from '../../../src/core/members/admit-by-group';
import {
  admittedNicknameBase,
  nicknameCandidates,
  nicknameStem,
} from '../../../src/core/members/admitted-nickname';
import { SLUG_PATTERN } from '../../../src/core/model/slug';

const who = { platform: 'discord', senderId: '123456789012345678' };

describe('P24, M10: the nickname of a person admitted by a group', () => {
  it('is their platform name made a slug', () => {
    expect(admittedNicknameBase('Bea Maintainer', who)).toBe('bea-maintainer');
    expect(admittedNicknameBase('  Zoë_Ålund!! ', who)).toBe('zoe_alund');
  });

  it('is offered first as it is, then with a number added, skipping the nicknames taken', () => {
    expect(nicknameCandidates('bea', new Set(), 3)).toEqual(['bea', 'bea-2', 'bea-3']);
    expect(nicknameCandidates('bea', new Set(['bea', 'bea-2', 'bea-4']), 3)).toEqual([
      'bea-3',
      'bea-5',
      'bea-6',
    ]);
  });

  it('falls back to the platform and user id when nothing of the name is left', () => {
    expect(admittedNicknameBase('✨✨', who)).toBe('discord-123456789012345678');
    expect(admittedNicknameBase(null, { platform: 'slack', senderId: 'U0ABC' })).toBe('slack-u0abc');
  });

  it('is always a slug the workspace file accepts, however long the name, and starts with its stem', () => {
    for (const name of ['A'.repeat(80), '-x-', '__a__', `${'é'.repeat(50)}z`]) {
      const base = admittedNicknameBase(name, who);
      const offered = nicknameCandidates(base, new Set([base]), 12);
      for (const nickname of offered) {
        expect(nickname).toMatch(SLUG_PATTERN);
        expect(nickname.length).toBeLessThanOrEqual(39);
        expect(nickname.startsWith(nicknameStem(base))).toBe(true);
      }
      expect(new Set(offered).size).toBe(offered.length);
    }
  });
});

describe('P24, P8: the refusal names the groups that admit and how to link', () => {
  it('Discord roles by name and id, with their roles; the link-account way', () => {
    const text = whoIsAdmitted(
      'discord',
      [{ group: { platform: 'discord', kind: 'role', id: '223456789012345678' }, role: 'member' }],
      new Map([['discord:role:223456789012345678', 'contributors']]),
    );
    expect(text).toContain('@contributors (223456789012345678) (member)');
    expect(text).toContain('/summon link-account <code>');
  });

  it('Slack user groups and everyone; with nothing listed, only the link-account way', () => {
    const text = whoIsAdmitted(
      'slack',
      [
        { group: { platform: 'slack', kind: 'usergroup', id: 'S0LEADS0001' }, role: 'approver' },
        { group: { platform: 'slack', kind: 'everyone' }, role: 'viewer' },
      ],
      new Map(),
    );
    expect(text).toContain('S0LEADS0001 (approver)');
    expect(text).toContain('everyone of this Slack workspace (viewer)');
    expect(whoIsAdmitted('slack', [], new Map())).toMatch(/any more.*link-account/);
  });
});
