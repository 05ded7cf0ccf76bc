import fc from 'fast-check';
import { accessRole } from '../../../src/core/members/access-role';
import { MEMBER_ROLES } from '../../../src/core/model/member';
import {
  ACCESS_ROLES,
  type AccessGrant,
  type AccessGroup,
  accessGroupKey,
  ROLE_RANK,
} from '../../../src/core/model/members/access-group';

const mods: AccessGroup = { platform: 'discord', kind: 'role', id: '123456789012345678' };
const leads: AccessGroup = { platform: 'slack', kind: 'usergroup', id: 'S0123ABCD' };
const everyone: AccessGroup = { platform: 'slack', kind: 'everyone' };

const group: fc.Arbitrary<AccessGroup> = fc.oneof(
  fc
    .constantFrom('12345678901234567', '123456789012345678', '1234567890123456789')
    .map((id): AccessGroup => ({ platform: 'discord', kind: 'role', id })),
  fc
    .constantFrom('S0123ABCD', 'S0123ABCE', 'SLEADS0001')
    .map((id): AccessGroup => ({ platform: 'slack', kind: 'usergroup', id })),
  fc.constant(everyone),
);
/** A valid access list: each group once, as the schema makes it. */
const accessList: fc.Arbitrary<AccessGrant[]> = fc.uniqueArray(
  fc.record({ group, role: fc.constantFrom(...ACCESS_ROLES) }),
  { selector: (grant) => accessGroupKey(grant.group) },
);
const entry = fc.option(fc.record({ role: fc.constantFrom(...MEMBER_ROLES) }), { nil: null });

describe('P24 accessRole', () => {
  it('P24 an explicit member entry always wins, lower or higher than the groups', () => {
    const access: AccessGrant[] = [{ group: mods, role: 'admin' }];
    expect(accessRole({ role: 'viewer' }, [mods], access)).toEqual({
      role: 'viewer',
      via: { kind: 'entry' },
    });
    expect(accessRole({ role: 'owner' }, [], access)).toEqual({ role: 'owner', via: { kind: 'entry' } });
  });

  it('P24 without an entry, the highest role of the person’s listed groups, and which group gave it', () => {
    const access: AccessGrant[] = [
      { group: everyone, role: 'viewer' },
      { group: leads, role: 'approver' },
      { group: mods, role: 'member' },
    ];
    expect(accessRole(null, [everyone, leads], access)).toEqual({
      role: 'approver',
      via: { kind: 'group', group: leads },
    });
    expect(accessRole(null, [everyone], access)).toEqual({
      role: 'viewer',
      via: { kind: 'group', group: everyone },
    });
  });

  it('P24 in no listed group and with no entry: nobody (P8 refuses them)', () => {
    expect(accessRole(null, [mods], [{ group: leads, role: 'admin' }])).toBeNull();
    expect(accessRole(null, [], [])).toBeNull();
    // A Discord role and a Slack user group with the same id are different groups.
    expect(
      accessRole(
        null,
        [{ platform: 'slack', kind: 'usergroup', id: mods.id }],
        [{ group: mods, role: 'admin' }],
      ),
    ).toBeNull();
  });

  it('P24 property: an entry decides alone; otherwise the result is the maximum over held listed groups', () => {
    fc.assert(
      fc.property(entry, fc.array(group), accessList, (explicit, held, access) => {
        const result = accessRole(explicit, held, access);
        if (explicit !== null) {
          expect(result).toEqual({ role: explicit.role, via: { kind: 'entry' } });
          return;
        }
        const heldKeys = new Set(held.map(accessGroupKey));
        const given = access.filter((grant) => heldKeys.has(accessGroupKey(grant.group)));
        if (given.length === 0) {
          expect(result).toBeNull();
          return;
        }
        const top = Math.max(...given.map((grant) => ROLE_RANK[grant.role]));
        expect(result).not.toBeNull();
        expect(ROLE_RANK[result?.role ?? 'owner']).toBe(top);
        expect(result?.role).not.toBe('owner');
        // The group named is one the person holds and that gives exactly this role.
        expect(
          given.some(
            (grant) =>
              result?.via.kind === 'group' &&
              accessGroupKey(grant.group) === accessGroupKey(result.via.group) &&
              grant.role === result.role,
          ),
        ).toBe(true);
      }),
    );
  });

  it('P24 property: gaining a group never lowers a role got from groups; the list’s order never changes the role', () => {
    fc.assert(
      fc.property(fc.array(group), group, accessList, (held, extra, access) => {
        const before = accessRole(null, held, access);
        const after = accessRole(null, [...held, extra], access);
        if (before !== null)
          expect(ROLE_RANK[after?.role ?? 'viewer']).toBeGreaterThanOrEqual(ROLE_RANK[before.role]);
        expect(accessRole(null, held, [...access].reverse())?.role).toBe(before?.role);
      }),
    );
  });

  it('P24 never owner from a group, even if an owner grant slipped past the schema and the table', () => {
    const slipped = [{ group: mods, role: 'owner' }] as unknown as AccessGrant[];
    expect(accessRole(null, [mods], slipped)?.role).toBe('admin');
  });
});
