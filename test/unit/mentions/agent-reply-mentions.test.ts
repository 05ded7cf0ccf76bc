import { parseAgentReply } from '../../../src/core/mentions';
import { AGENTS, agentsNamed, names } from './mention-fixtures';

const SELF = 'agent-ceo';
const parse = (text: string, agents = AGENTS, selfId = SELF) => parseAgentReply(text, { agents, selfId });

describe('parseAgentReply: SPEC examples', () => {
  it('M14: the mentions in a reply are resolved to the agents to wake', () => {
    const result = parse('Done with the schema. @bob please write the migration tests.');
    expect(names(result.agents)).toEqual(['bob']);
    expect(result.agents[0]?.spans).toEqual([{ token: 'bob', start: 22, end: 26 }]);
  });

  it('M15: `@arch` from an agent reaches nobody (exact names only, no prefix)', () => {
    const result = parse('@arch can you check?');
    expect(result.agents).toEqual([]);
    expect(result.unresolved.map((u) => u.token)).toEqual(['arch']);
  });

  it('M15: exact names match regardless of case (names are slugs)', () => {
    expect(names(parse('@Bob and @ALICE, over to you').agents)).toEqual(['bob', 'alice']);
  });

  it('M15: a name that matches two agents reaches nobody and is reported as ambiguous', () => {
    const agents = agentsNamed('ceo', 'alice', 'Alice');
    const result = parse('@alice please take this', agents);
    expect(result.agents).toEqual([]);
    expect(result.ambiguous).toEqual([
      {
        token: 'alice',
        spans: [{ token: 'alice', start: 0, end: 6 }],
        matches: [
          { id: 'agent-alice', name: 'alice' },
          { id: 'agent-Alice', name: 'Alice' },
        ],
      },
    ]);
  });

  it('M16: `@Override` inside inline backticks is ignored', () => {
    const result = parse('Annotate it with `@Override`.', agentsNamed('ceo', 'override'));
    expect(result.agents).toEqual([]);
    expect(result.unresolved).toEqual([]);
  });

  it('M16: `pip install foo@1.2` inside backticks is ignored', () => {
    expect(parse('Run `pip install foo@1.2` first.', agentsNamed('ceo', 'foo', '1.2')).agents).toEqual([]);
  });

  it('M16: mentions inside a fenced code block are ignored', () => {
    const text = 'Here:\n```java\n@Override\n@bob\n```\nThat is all, @alice.';
    expect(names(parse(text, [...AGENTS, ...agentsNamed('override')]).agents)).toEqual(['alice']);
  });

  it('M16: ~~~ fences, info strings and fences indented up to 3 spaces count too', () => {
    expect(parse('~~~\n@bob\n~~~').agents).toEqual([]);
    expect(parse('```ts title="x.ts"\n@bob\n```').agents).toEqual([]);
    expect(parse('   ```\n@bob\n   ```').agents).toEqual([]);
    expect(names(parse('~~~\n@bob\n~~~\n@alice').agents)).toEqual(['alice']);
  });

  it('M16: multi-backtick inline spans (``a `@bob` c``) are ignored', () => {
    expect(parse('Write ``a `@bob` c`` literally.').agents).toEqual([]);
  });

  it('M16: an unclosed fence voids everything after it', () => {
    const result = parse('@alice first.\n```\ncode\n\nAnd @bob, your turn.');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.unresolved).toEqual([]);
  });

  it('M16: an unmatched inline backtick is a literal, so the mention after it counts', () => {
    expect(names(parse('The ` key, @bob.').agents)).toEqual(['bob']);
  });

  it('M17: `sam@host.com`, `pkg/@scope` and `node@20` are no mentions', () => {
    const agents = agentsNamed('ceo', 'host', 'scope', '20');
    for (const text of ['mail sam@host.com', 'install pkg/@scope', 'use node@20']) {
      const result = parse(text, agents);
      expect(result.agents).toEqual([]);
      expect(result.unresolved).toEqual([]);
    }
  });

  it('M18: `@code-reviewer` resolves as code-reviewer, not code', () => {
    const result = parse('@code-reviewer please review.');
    expect(names(result.agents)).toEqual(['code-reviewer']);
    expect(result.agents[0]?.spans[0]?.token).toBe('code-reviewer');
  });

  it('M18: a hyphenated name that does not exist does not fall back to its first word', () => {
    const result = parse('@code-monkey help');
    expect(result.agents).toEqual([]);
    expect(result.unresolved.map((u) => u.token)).toEqual(['code-monkey']);
  });

  it('M19 is not applied here: four named agents come back as four (the wake chain decides)', () => {
    const agents = agentsNamed('ceo', 'a1', 'a2', 'a3', 'a4');
    expect(names(parse('@a1 @a2 @a3 @a4 see above', agents).agents)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });

  it('M21: an unresolved name is reported (the caller posts nothing for it)', () => {
    const result = parse('Thanks @nobody and @Nobody.');
    expect(result.agents).toEqual([]);
    expect(result.unresolved).toEqual([
      {
        token: 'nobody',
        spans: [
          { token: 'nobody', start: 7, end: 14 },
          { token: 'Nobody', start: 19, end: 26 },
        ],
      },
    ]);
  });

  it('M22: a self-mention is ignored but reported', () => {
    const result = parse('@ceo here: @alice take it', AGENTS, 'agent-ceo');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.selfMentioned).toBe(true);
    expect(parse('@alice take it').selfMentioned).toBe(false);
  });
});

describe('parseAgentReply: edges', () => {
  it.each([
    '@alice.',
    '@alice,',
    '@alice:',
    '@alice!',
    '@alice?',
    '(@alice)',
    '"@alice"',
    '**@alice**',
    '@alice-',
  ])('trailing or surrounding punctuation still reaches alice: %j', (text) => {
    expect(names(parse(`Over to you ${text}`).agents)).toEqual(['alice']);
  });

  it('inner dots are part of the name (`@alice.bob` is not alice)', () => {
    expect(parse('ask @alice.bob').agents).toEqual([]);
    expect(names(parse('ask @alice.bob', agentsNamed('ceo', 'alice.bob')).agents)).toEqual(['alice.bob']);
  });

  it('an @ glued to code or to another mention is no mention', () => {
    expect(parse('`x`@alice').agents).toEqual([]);
    expect(names(parse('@alice@bob').agents)).toEqual(['alice']);
  });

  it('a platform user reference `<@U123>` does not crash and resolves nobody', () => {
    const result = parse('cc <@U123> <@!456> <@&789>', agentsNamed('ceo', 'U123'));
    expect(result).toEqual({ agents: [], ambiguous: [], unresolved: [], selfMentioned: false });
  });

  it('agents come out distinct, in order of first appearance', () => {
    const result = parse('@bob, then @alice, then @bob again');
    expect(names(result.agents)).toEqual(['bob', 'alice']);
    expect(result.agents[0]?.spans).toHaveLength(2);
  });

  it('an empty reply, a lone @ and Windows line endings are handled', () => {
    expect(parse('').agents).toEqual([]);
    expect(parse('@').unresolved).toEqual([]);
    expect(parse('```\r\n@bob\r\n```\r\n@alice').agents.map((a) => a.agent.name)).toEqual(['alice']);
  });
});
