import { ValidationError } from '../../../src/core/errors';
import { parseWorkspaceFile } from '../../../src/core/workspace/parse-workspace-file';

function refusal(text: string): string[] {
  try {
    parseWorkspaceFile(text);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const access = (...entries: string[]) =>
  `workspace: acme\naccess:\n${entries.map((e) => `  - ${e}\n`).join('')}`;

describe('P24 the workspace file’s access key', () => {
  it('P24 accepts a Discord role, a Slack user group and all of Slack, each with a role', () => {
    const file = parseWorkspaceFile(
      access(
        '{ discord: { role: "12345678901234567" }, role: viewer }',
        '{ discord: { role: "12345678901234567890" }, role: admin }',
        '{ slack: { usergroup: S0123ABCD }, role: approver }',
        '{ slack: { everyone: true }, role: member }',
      ),
    );
    expect(file.access).toEqual([
      { discord: { role: '12345678901234567' }, role: 'viewer' },
      { discord: { role: '12345678901234567890' }, role: 'admin' },
      { slack: { usergroup: 'S0123ABCD' }, role: 'approver' },
      { slack: { everyone: true }, role: 'member' },
    ]);
  });

  it('P24 refuses an unknown key, naming it', () => {
    expect(refusal(access('{ discord: { role: "12345678901234567" }, role: member, note: x }'))).toEqual([
      'access[0].note: unknown key',
    ]);
    expect(refusal(access('{ discord: { role: "12345678901234567", name: mods }, role: member }'))).toEqual([
      'access[0].discord.name: unknown key',
    ]);
    expect(refusal(access('{ slack: { usergroup: S0123ABCD, team: T1 }, role: member }'))).toEqual([
      'access[0].slack.team: unknown key',
    ]);
  });

  it('P24 refuses a Discord role id that is not a quoted 17–20 digit snowflake', () => {
    for (const id of ['"1234567890123456"', '"123456789012345678901"', '"12345678901234567a"', '"@mods"'])
      expect(refusal(access(`{ discord: { role: ${id} }, role: member }`))).toEqual([
        'access[0].discord.role: must be a Discord role id: 17 to 20 digits, quoted',
      ]);
    expect(refusal(access('{ discord: { role: 123456789012345678 }, role: member }'))).toEqual([
      'access[0].discord.role: must be a quoted Discord role id (digits lose precision as a YAML number)',
    ]);
  });

  it('P24 refuses a Slack user group id of the wrong shape', () => {
    for (const id of ['U0123ABCD', 'S0123ABC', 's0123abcd', '"@backend-team"'])
      expect(refusal(access(`{ slack: { usergroup: ${id} }, role: member }`))).toEqual([
        'access[0].slack.usergroup: must be a Slack user group id such as S0123ABCD (S and 8 or more capitals or digits)',
      ]);
    expect(refusal(access('{ slack: { everyone: false }, role: member }'))).toEqual(
      expect.arrayContaining(['access[0].slack.everyone: must be true (every person of the Slack team)']),
    );
  });

  it('P24 refuses role owner with a sentence, and a role that is not one', () => {
    expect(refusal(access('{ slack: { everyone: true }, role: owner }'))).toEqual([
      'access[0].role: cannot be owner: a group gives viewer, member, approver or admin; an owner is named in members',
    ]);
    expect(refusal(access('{ slack: { everyone: true }, role: boss }'))).toEqual([
      'access[0].role: must be one of: viewer, member, approver, admin',
    ]);
    expect(refusal(access('{ slack: { everyone: true } }'))).toEqual([
      'access[0].role: must be one of: viewer, member, approver, admin',
    ]);
  });

  it('P24 refuses an entry naming no group, or two, or a slack entry naming both kinds', () => {
    const one =
      'must name exactly one group: `discord: { role: "<id>" }` or `slack: { usergroup: S… }` / `slack: { everyone: true }`';
    expect(refusal(access('{ role: member }'))).toEqual([`access[0]: ${one}`]);
    expect(
      refusal(access('{ discord: { role: "12345678901234567" }, slack: { everyone: true }, role: member }')),
    ).toEqual([`access[0]: ${one}`]);
    expect(refusal(access('{ slack: { usergroup: S0123ABCD, everyone: true }, role: member }'))).toEqual([
      'access[0].slack: must give exactly one of `usergroup: S…` or `everyone: true`',
    ]);
  });

  it('P24 refuses the same group twice, whatever the roles', () => {
    expect(
      refusal(
        access(
          '{ discord: { role: "12345678901234567" }, role: member }',
          '{ slack: { everyone: true }, role: viewer }',
          '{ discord: { role: "12345678901234567" }, role: admin }',
          '{ slack: { everyone: true }, role: member }',
        ),
      ),
    ).toEqual(['access[2]: duplicates access[0]', 'access[3]: duplicates access[1]']);
  });
});
