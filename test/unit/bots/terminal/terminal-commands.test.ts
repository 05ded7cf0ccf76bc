import { helpLines, parseTerminalInput } from '../../../../src/bots/terminal/terminal-commands';

describe('parseTerminalInput', () => {
  it('a line without a leading / is a message', () => {
    expect(parseTerminalInput('  @engineer fix the login bug ')).toEqual({
      kind: 'message',
      text: '@engineer fix the login bug',
    });
    expect(parseTerminalInput('   ')).toEqual({ kind: 'empty' });
  });

  it('reads each command', () => {
    expect(parseTerminalInput('/help')).toEqual({ kind: 'help' });
    expect(parseTerminalInput('/threads')).toEqual({ kind: 'threads' });
    expect(parseTerminalInput('/thread 2')).toEqual({ kind: 'thread', number: 2 });
    expect(parseTerminalInput('/new')).toEqual({ kind: 'new' });
    expect(parseTerminalInput('/open 2')).toEqual({ kind: 'note', action: 'open', card: 2 });
    expect(parseTerminalInput('/fold #2')).toEqual({ kind: 'note', action: 'fold', card: 2 });
    expect(parseTerminalInput('/approve 1')).toEqual({ kind: 'approval', verdict: 'approve', card: 1 });
    // E4: an MCP call's card, approved for the rest of the conversation.
    expect(parseTerminalInput('/approve-conversation 2')).toEqual({
      kind: 'approval',
      verdict: 'approve-conversation',
      card: 2,
    });
    expect(parseTerminalInput('/deny 1')).toEqual({ kind: 'approval', verdict: 'deny', card: 1 });
    expect(parseTerminalInput('/QUIT')).toEqual({ kind: 'quit' });
  });

  it('a missing or wrong argument answers with the usage', () => {
    expect(parseTerminalInput('/thread')).toEqual({ kind: 'usage', usage: '/thread <n>' });
    expect(parseTerminalInput('/open two')).toEqual({ kind: 'usage', usage: '/open <n>' });
    expect(parseTerminalInput('/approve 0')).toEqual({ kind: 'usage', usage: '/approve <n>' });
    expect(parseTerminalInput('/new 3')).toEqual({ kind: 'usage', usage: '/new' });
  });

  it('an unknown command is named', () => {
    expect(parseTerminalInput('/summon link ops')).toEqual({ kind: 'unknown', command: '/summon' });
  });

  it('A5: /skill:name is a message, and //text sends a line starting with /', () => {
    expect(parseTerminalInput('/skill:review @qa look at this')).toEqual({
      kind: 'message',
      text: '/skill:review @qa look at this',
    });
    expect(parseTerminalInput('//etc/hosts is wrong')).toEqual({
      kind: 'message',
      text: '/etc/hosts is wrong',
    });
  });

  it('N13: /answer takes an option number or free text, and needs one of them', () => {
    expect(parseTerminalInput('/answer 2')).toEqual({ kind: 'answer', answer: '2' });
    expect(parseTerminalInput('/answer  JSON, with dates as ISO strings ')).toEqual({
      kind: 'answer',
      answer: 'JSON, with dates as ISO strings',
    });
    expect(parseTerminalInput('/answer')).toEqual({ kind: 'usage', usage: '/answer <n|text>' });
  });

  it('/help lists every command', () => {
    const help = helpLines().join('\n');
    for (const command of [
      '/help',
      '/threads',
      '/thread <n>',
      '/new',
      '/open <n>',
      '/fold <n>',
      '/approve <n>',
      '/approve-conversation <n>',
      '/deny <n>',
      '/answer <n|text>',
      '/stop',
      '/quit',
    ]) {
      expect(help).toContain(command);
    }
  });
});
