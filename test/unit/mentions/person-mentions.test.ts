import { parsePersonMessage } from '../../../src/core/mentions';
import { AGENTS, agentsNamed, MEMBERS, membersNamed, names, SEEDED_AGENTS } from './mention-fixtures';

const parse = (text: string, agents = AGENTS, members = MEMBERS) =>
  parsePersonMessage(text, { agents, members });

describe('parsePersonMessage: SPEC examples', () => {
  it('M1: `@alice fix the login bug` starts alice with the text, and nobody else', () => {
    const result = parse('@alice fix the login bug');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.text).toBe('fix the login bug');
    expect(result.isMentionOnly).toBe(false);
  });

  it('M2: any agent of the workspace resolves; participation is settled by the caller', () => {
    // The candidates are the workspace's agents, not the space's participants.
    expect(names(parse('@librarian index the docs', SEEDED_AGENTS, []).agents)).toEqual(['librarian']);
  });

  it('M3: a message that mentions no agent resolves nobody and is left for the fallback', () => {
    const result = parse('the build is red again');
    expect(result.agents).toEqual([]);
    expect(result.isMentionOnly).toBe(false);
    expect(result.text).toBe('the build is red again');
  });

  it('M4: `@arch` reaches architect by prefix', () => {
    expect(names(parse('@arch sketch the API', SEEDED_AGENTS, []).agents)).toEqual(['architect']);
  });

  it('M4: `@Alice` reaches alice, case-insensitively', () => {
    expect(names(parse('@Alice hello there').agents)).toEqual(['alice']);
  });

  it('M5: several prefix matches: the earliest-created wins and a hint names the others', () => {
    const result = parse('@arch plan it', agentsNamed('architect', 'archivist'), []);
    expect(names(result.agents)).toEqual(['architect']);
    expect(result.hints).toEqual([
      {
        token: 'arch',
        chosen: { kind: 'agent', id: 'agent-architect', name: 'architect' },
        others: [{ kind: 'agent', id: 'agent-archivist', name: 'archivist' }],
        message: '@arch matched architect; also matched archivist',
      },
    ]);
  });

  it('M5: the tie-break is creation order (array order), not alphabetical', () => {
    const result = parse('@arch plan it', agentsNamed('archivist', 'architect'), []);
    expect(names(result.agents)).toEqual(['archivist']);
    expect(result.hints[0]?.message).toBe('@arch matched archivist; also matched architect');
  });

  it('M5: an exact match wins over prefix matches, with no hint', () => {
    const result = parse('@arch plan it', agentsNamed('architect', 'arch', 'archivist'), []);
    expect(names(result.agents)).toEqual(['arch']);
    expect(result.hints).toEqual([]);
  });

  it('M5: one hint per token, however often it is typed', () => {
    const result = parse('@arch one. @ARCH two.', agentsNamed('architect', 'archivist'), []);
    expect(result.hints.map((hint) => hint.token)).toEqual(['arch']);
  });

  it('M6: `@code-reviewer` reads as the token `code`', () => {
    const result = parse('@code-reviewer please look', agentsNamed('code', 'code-reviewer'), []);
    expect(names(result.agents)).toEqual(['code']);
    expect(result.agents[0]?.spans[0]?.token).toBe('code');
    // The rest of the word is not part of the mention, so it stays in the prompt.
    expect(result.text).toBe('-reviewer please look');
  });

  it('M6: `@code-reviewer` reaches code-reviewer by prefix when no `code` exists, and is stripped whole', () => {
    const result = parse('@code-reviewer please look', agentsNamed('code-reviewer'), []);
    expect(names(result.agents)).toEqual(['code-reviewer']);
    expect(result.agents[0]?.spans[0]?.token).toBe('code');
    expect(result.text).toBe('please look');
  });

  it('M6: `@my agent` reads as the token `my`', () => {
    const result = parse('@my agent run it', agentsNamed('my agent'), []);
    expect(result.agents[0]?.spans[0]?.token).toBe('my');
    expect(result.text).toBe('agent run it');
  });

  it('M7: mentions are stripped from the text before it reaches the agent', () => {
    expect(parse('@alice fix it').text).toBe('fix it');
    expect(parse('fix it @alice').text).toBe('fix it');
  });

  it('M7: `@alice` alone starts nobody', () => {
    const result = parse('@alice');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.isMentionOnly).toBe(true);
    expect(result.text).toBe('');
  });

  it('M7: a remainder of whitespace and punctuation counts as nothing', () => {
    expect(parse('@alice!').isMentionOnly).toBe(true);
    expect(parse('  @alice, @bob.  ').isMentionOnly).toBe(true);
    expect(parse('@alice @sam').isMentionOnly).toBe(true);
    expect(parse('@alice ok').isMentionOnly).toBe(false);
    expect(parse('@alice 👍').isMentionOnly).toBe(false);
    expect(parse('@alice 42').isMentionOnly).toBe(false);
  });

  it('M8: `@alice refactor the auth module. @bob write tests for it.` starts both with the full text', () => {
    const result = parse('@alice refactor the auth module. @bob write tests for it.');
    expect(names(result.agents)).toEqual(['alice', 'bob']);
    expect(result.text).toBe('refactor the auth module. write tests for it.');
    expect(result.isMentionOnly).toBe(false);
  });

  it('M10: a token no agent takes is checked against members, exact or prefix, any case', () => {
    expect(parse('@sam ping').members.map((m) => m.member.nickname)).toEqual(['sam']);
    expect(parse('@SAM ping').members.map((m) => m.member.nickname)).toEqual(['sam']);
    expect(parse('@sar ping').members.map((m) => m.member.nickname)).toEqual(['sara']);
  });

  it('M10: members follow M5 too: exact first, else the earliest-created, with a hint', () => {
    const members = membersNamed('sara', 'sam');
    expect(parse('@sam hi', [], members).members.map((m) => m.member.nickname)).toEqual(['sam']);
    const result = parse('@sa hi', [], members);
    expect(result.members.map((m) => m.member.nickname)).toEqual(['sara']);
    expect(result.hints[0]?.message).toBe('@sa matched sara (member); also matched sam (member)');
  });

  it('M11: a human mention starts nobody and stays in the text as typed', () => {
    const result = parse('@sam can you check this?');
    expect(result.agents).toEqual([]);
    expect(result.members).toEqual([
      { member: { id: 'member-sam', nickname: 'sam' }, spans: [{ token: 'sam', start: 0, end: 4 }] },
    ]);
    expect(result.text).toBe('@sam can you check this?');
  });

  it('M11: an agent started next to a human mention still reads the human mention', () => {
    const result = parse('@alice pair with @sam on this');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.members.map((m) => m.member.nickname)).toEqual(['sam']);
    expect(result.text).toBe('pair with @sam on this');
  });

  it('M12: agents are checked first; a token an agent takes is never offered to members', () => {
    const result = parse('@sam look', agentsNamed('samurai'), membersNamed('sam'));
    expect(names(result.agents)).toEqual(['samurai']);
    expect(result.members).toEqual([]);
    // The person is told that the member they may have meant was passed over.
    expect(result.hints[0]?.message).toBe('@sam matched samurai; also matched sam (member)');
  });

  it('M12: one @word resolves to one principal even when an agent and a member share the name', () => {
    const result = parse('@sam look', agentsNamed('sam'), membersNamed('sam'));
    expect(names(result.agents)).toEqual(['sam']);
    expect(result.members).toEqual([]);
  });
});

describe('parsePersonMessage: token boundaries', () => {
  it('M17 for people: an e-mail address is not a mention', () => {
    const result = parse('mail alice@example.com or sam@host.com');
    expect(result.agents).toEqual([]);
    expect(result.members).toEqual([]);
    expect(result.unresolved).toEqual([]);
  });

  it('M17 for people: a pasted URL or package scope does not summon by prefix', () => {
    const result = parse('see https://medium.com/@alice/post and npmjs.com/package/@arch/x', AGENTS, []);
    expect(result.agents).toEqual([]);
  });

  it('an @ after an opening bracket, quote, emphasis or separator is free', () => {
    for (const text of ['(@alice)', '"@alice"', '**@alice**', '~@alice~', 'cc:@alice', 'x,@alice']) {
      expect(names(parse(text).agents)).toEqual(['alice']);
    }
  });

  it('`@alice@bob` is two mentions typed without a space', () => {
    const result = parse('@alice@bob sync up');
    expect(names(result.agents)).toEqual(['alice', 'bob']);
    expect(result.text).toBe('sync up');
  });

  it('a platform user reference `<@U123>` does not crash and resolves nobody', () => {
    const result = parse('hi <@U123> and <@!456>', agentsNamed('u123'), membersNamed('U123'));
    expect(result.agents).toEqual([]);
    expect(result.members).toEqual([]);
    expect(result.text).toBe('hi <@U123> and <@!456>');
  });

  it('a lone or doubled @ is not a token', () => {
    expect(parse('@').unresolved).toEqual([]);
    expect(parse('@ alice').agents).toEqual([]);
    expect(parse('@@alice go').agents).toEqual([]); // the second @ is glued to the first
    // M6: `_` is a word character, so `_@alice_` (markdown italics) reads the token `alice_`.
    expect(parse('_@alice_').unresolved.map((u) => u.token)).toEqual(['alice_']);
    expect(parse('').text).toBe('');
  });

  it('unresolved tokens are reported once per name, case-insensitively, and stay in the text', () => {
    const result = parse('@zed and @Zed and @alice go');
    expect(result.unresolved).toEqual([
      {
        token: 'zed',
        spans: [
          { token: 'zed', start: 0, end: 4 },
          { token: 'Zed', start: 9, end: 13 },
        ],
      },
    ]);
    expect(result.text).toBe('@zed and @Zed and go');
  });

  it('agents come out distinct, in order of first appearance, with every span', () => {
    const result = parse('@bob then @alice then @Bob');
    expect(names(result.agents)).toEqual(['bob', 'alice']);
    expect(result.agents[0]?.spans.map((span) => span.start)).toEqual([0, 22]);
  });

  it('Unicode nicknames resolve, also when typed with a combining accent', () => {
    expect(parse('@jiří hi').members.map((m) => m.member.nickname)).toEqual(['jiří']);
    expect(parse('@jiri\u0301\u0301 hi').members).toEqual([]);
    expect(parse('@ji\u0159i\u0301 hi').members.map((m) => m.member.nickname)).toEqual(['jiří']);
  });
});

describe('parsePersonMessage: code is not text (M16 applied to people)', () => {
  it('ignores mentions in inline code and fenced blocks', () => {
    const result = parse('@alice why does `@bob` fail?\n```java\n@Override\n@code\n```');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.text).toBe('why does `@bob` fail?\n```java\n@Override\n@code\n```');
  });

  it('a fence typed right after the mentions opens a code block, as in Slack', () => {
    const result = parse('@alice ```\nconst x = 1; // @bob\n```\nthanks');
    expect(names(result.agents)).toEqual(['alice']);
    expect(result.text).toBe('```\nconst x = 1; // @bob\n```\nthanks');
  });

  it('a Slack-style block closed at the end of its last line ends there', () => {
    const result = parse('```line one\nline two```\n@bob please review');
    expect(names(result.agents)).toEqual(['bob']);
    expect(result.text).toBe('```line one\nline two```\nplease review');
  });
});

describe('parsePersonMessage: tidy text', () => {
  it.each([
    ['fix @alice, now', 'fix, now'],
    ['ask @alice.', 'ask.'],
    ['(@alice fix this)', '(fix this)'],
    ['@alice: fix this', 'fix this'],
    ['@alice, @bob; fix this', 'fix this'],
    ['hey\n@alice\nfix this', 'hey\nfix this'],
    ['@alice\n\nfix this', 'fix this'],
    ['- @alice fix this\n- @bob test it', '- fix this\n- test it'],
    ['@alice\r\nfix this', 'fix this'],
  ])('%j becomes %j', (input, expected) => {
    expect(parse(input).text).toBe(expected);
  });

  it('leaves code and indentation elsewhere exactly as typed', () => {
    const code = '```\n  indented\n\n\ttabbed   \n```';
    expect(parse(`@alice look:\n${code}`).text).toBe(`look:\n${code}`);
  });
});

describe('parsePersonMessage: stripping is idempotent (M7)', () => {
  it.each([
    // A fence opened after the mentions must stay a fence once they are gone.
    ['@alice ```\nx\n```\n@bob hi', '```\nx\n```\nhi'],
    ['@alice ;```\nx\n```\n@bob hi', '```\nx\n```\nhi'],
    // The first line keeps its indentation, so a 4-space "fence" does not become one.
    ['@alice\n    ```\nx\n```\n@bob\n```', '    ```\nx\n```\n@bob\n```'],
    // A glued @ never becomes free when the mention before it goes.
    ['(@alice@sam)', '(@sam)'],
    ['@alice:@sam', '@sam'],
  ])('%j strips to %j, and a second read strips nothing', (input, expected) => {
    const once = parse(input).text;
    expect(once).toBe(expected);
    const twice = parse(once);
    expect(twice.agents).toEqual([]);
    expect(twice.text).toBe(once);
  });
});
