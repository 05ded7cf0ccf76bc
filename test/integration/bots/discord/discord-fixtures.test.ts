import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { typeProblems } from '../../../support/stand-ins/discord/discord-fixture-types';
import {
  dispatchProblems,
  FIXTURE_DIR,
  FIXTURES,
  type FixtureName,
  filledIn,
  fixture,
} from '../../../support/stand-ins/discord/discord-fixtures';

const NAMES = Object.keys(FIXTURES) as FixtureName[];

/** Every string value of a payload, nested ones too. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(strings)
        : [];

const NEUTRAL_NAMES = [
  'Example Guild',
  '@everyone',
  'general',
  'a thread',
  'person-one',
  'Summon',
  'Example Webhook',
  'ask',
  'agent',
  'prompt',
];

/** Every value of a field that names someone or something. */
const namesIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(namesIn)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, v]) =>
          ['name', 'username', 'global_name', 'nick'].includes(key) && typeof v === 'string'
            ? [v]
            : namesIn(v),
        )
      : [];

describe('Discord gateway payloads recorded under test/fixtures/discord', () => {
  it('each file is a known fixture, and the README says where each comes from', () => {
    const files = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...NAMES].sort());
    const readme = readFileSync(path.join(FIXTURE_DIR, 'README.md'), 'utf8');
    for (const name of NAMES) expect(readme).toContain(`${name}.json`);
  });

  it.each(NAMES)('%s validates against Discord’s OpenAPI description (discord-api-spec)', (name) => {
    expect(dispatchProblems(FIXTURES[name].event, fixture(name))).toEqual([]);
  });

  it('every fixture type-checks against its discord-api-types type (what discord.js is typed against)', () => {
    expect(typeProblems(Object.fromEntries(NAMES.map((name) => [name, fixture(name)])))).toEqual([]);
  });

  it('the checks catch a payload Discord would not send', () => {
    const noContent = { ...fixture('message-create-guild'), content: undefined };
    expect(dispatchProblems('MESSAGE_CREATE', noContent).join('\n')).toMatch(/MessageResponseSchema content/);
    expect(
      dispatchProblems('INTERACTION_CREATE', { ...fixture('interaction-command'), type: 42 }).join('\n'),
    ).toMatch(/InteractionTypesSchema/);
    const problems = typeProblems({
      'message-create-guild': noContent,
      'interaction-button': {
        ...fixture('interaction-button'),
        data: { custom_id: 'x', component_type: 2, extra: 1 },
      },
      'guild-create': { ...fixture('guild-create'), verification_level: 9 },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^message-create-guild: Property 'content' is missing/),
      expect.stringMatching(/^interaction-button: .*'"extra"' does not exist/),
      expect.stringMatching(/^guild-create: Type '9' is not assignable to type 'GuildVerificationLevel'/),
    ]);
  });

  it('filling one in keeps the recorded shape, replaces what the test gives and refuses a recorded id left in', () => {
    expect(() => filledIn('message-create-dm', { content: 'hi' })).toThrow(
      /message-create-dm: recorded ids not filled in: 100000000000000014, 100000000000000007, 100000000000000005, 100000000000000015/,
    );
    const person = { ...(fixture('message-create-dm').author as object), id: '200000000000000005' };
    const filled = filledIn('message-create-dm', {
      id: '200000000000000014',
      channel_id: '200000000000000007',
      author: person,
      nonce: undefined,
      content: 'hi',
    });
    expect(filled).toEqual({ ...fixture('message-create-dm'), ...filled, nonce: undefined });
    expect(filled).not.toHaveProperty('nonce');
    expect(filled.author).toEqual(person);
    expect(dispatchProblems('MESSAGE_CREATE', filled)).toEqual([]);
  });

  it('is anonymised: every snowflake is a placeholder, no token, only neutral names', () => {
    for (const name of NAMES) {
      const payload = fixture(name);
      const values = strings(payload);
      for (const id of values.filter((v) => /^\d{15,20}$/.test(v)))
        expect(id).toMatch(/^1000000000000000\d\d$/);
      // A bot token's three dot-separated parts.
      expect(values.filter((v) => /^[\w-]{24,}\.[\w-]{6}\.[\w-]{27,}$/.test(v))).toEqual([]);
      for (const written of namesIn(payload)) expect(NEUTRAL_NAMES).toContain(written);
    }
  });
});
