import { whoIsAdmitted } from '../../../src/core/members/admit-by-group';
import { admittedMemberId } from '../../../src/core/members/admitted-member';
import { admittedNicknameBase, nicknameCandidates } from '../../../src/core/members/admitted-nickname';
import { givenBy, givenStartingWith } from '../../../src/core/model/members/nickname-offer';
import { SLUG_PATTERN } from '../../../src/core/model/slug';

const who = { platform: 'discord', senderId: '123456789012345678' };

describe('P24, M10: the nickname of a person admitted by a group', () => {
  it('is their platform name made a slug', () => {
    expect(admittedNicknameBase('Bea Maintainer', who)).toBe('bea-maintainer');
    expect(admittedNicknameBase('  Zoë_Ålund!! ', who)).toBe('zoe_alund');
  });

  it('is offered first as it is, then with a number added', () => {
    expect(nicknameCandidates('bea', 3)).toEqual(['bea', 'bea-2', 'bea-3']);
  });

  it('the admitted member’s id is a uuid, the same for the same account, another for another', () => {
    const id = admittedMemberId('w1', 'discord', '1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(admittedMemberId('w1', 'discord', '1')).toBe(id);
    const others = [admittedMemberId('w2', 'discord', '1'), admittedMemberId('w1', 'slack', '1')];
    expect(new Set([id, ...others]).size).toBe(3);
  });

  it('falls back to the platform and user id when nothing of the name is left', () => {
    expect(admittedNicknameBase('✨✨', who)).toBe('discord-123456789012345678');
    expect(admittedNicknameBase(null, { platform: 'slack', senderId: 'U0ABC' })).toBe('slack-u0abc');
  });

  it('is always a slug the workspace file accepts, however long the name', () => {
    for (const name of ['A'.repeat(80), '-x-', '__a__', `${'é'.repeat(50)}z`]) {
      const offered = nicknameCandidates(admittedNicknameBase(name, who), 16);
      for (const nickname of offered) {
        expect(nickname).toMatch(SLUG_PATTERN);
        expect(nickname.length).toBeLessThanOrEqual(39);
      }
      expect(new Set(offered).size).toBe(offered.length);
    }
  });
});

describe('P24, M10: the nicknames a base gives, asked without listing them (what an admission may change)', () => {
  const long = `${'a'.repeat(30)}bcdefghij`;

  it('is one of them: the base or it numbered 2 … 16, case ignored, cut as `nicknameCandidates` cuts', () => {
    for (const base of ['zoe', long])
      for (const nickname of nicknameCandidates(base, 16)) expect(givenBy(base, nickname)).toBe(true);
    for (const other of ['zoe-1', 'zoe-17', 'zoe-02', 'zoe-', 'zoe2', 'zo', 'zoe-2-2', `${long}-2`])
      expect(givenBy('zoe', other) || givenBy(long, other)).toBe(false);
  });

  it('starts with a prefix: exactly when one of the 16 does', () => {
    const prefixes = [
      'z',
      'zoe',
      'zoe-',
      'zoe-1',
      'zoe-16',
      'zoe-17',
      'zoe-7',
      'zoey',
      'zoe-2x',
      long,
      `${long.slice(0, 36)}-1`,
      `${long.slice(0, 37)}-9`,
      `${long}-`,
    ];
    for (const base of ['zoe', long])
      for (const prefix of prefixes)
        expect([prefix, givenStartingWith(base, prefix)]).toEqual([
          prefix,
          nicknameCandidates(base, 16).some((nickname) => nickname.startsWith(prefix)),
        ]);
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
