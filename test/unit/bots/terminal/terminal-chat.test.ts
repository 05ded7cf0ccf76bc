import type { ChatPlatform, InboundMessage, OutboundMessage } from '../../../../src/core/ports/chat-platform';
import { RecordingChatEngine } from '../../../support/platform-contract';
import { makeTerminal } from './terminal-fixture';

const actor = { platform: 'terminal', workspace: { slug: 'default' }, senderId: 'you' };
const architect = { kind: 'agent', name: 'architect', avatarUrl: null } as const;
const note = (messageId: string, open: boolean): OutboundMessage => ({
  as: architect,
  content: {
    kind: 'note',
    card: { messageId, row: `note from this relay · ${messageId}`, text: 'The prompt.', open },
  },
});
const approval = (status: 'pending' | 'approved' | 'denied'): OutboundMessage => ({
  as: { kind: 'agent', name: 'engineer', avatarUrl: null },
  content: {
    kind: 'approval',
    card: {
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'push_to_remote',
      summary: 'push to main',
      details: [],
      status,
      decidedBy: status === 'pending' ? null : 'you',
    },
  },
});

/** A core stand-in that answers a person's message with a note, another note and an approval card. */
function coreThatPostsCards(platform: () => ChatPlatform): RecordingChatEngine {
  const refs = new Map<string, string>();
  const engine = new RecordingChatEngine({
    receive: async (message: InboundMessage) => {
      refs.set('msg-a', await platform().post(message.thread, note('msg-a', false)));
      refs.set('msg-b', await platform().post(message.thread, note('msg-b', false)));
      refs.set('ap-1', await platform().post(message.thread, approval('pending')));
      return { kind: 'accepted', conversationId: 'c-1', runIds: ['r-1'] };
    },
    // N7: the core redraws the note through update.
    toggleNote: async (messageId, action) => {
      const thread = engine.received[0]?.thread ?? '';
      await platform().update(thread, refs.get(messageId) ?? '', note(messageId, action === 'open'));
    },
  });
  return engine;
}

describe('terminal chat', () => {
  it('a typed line becomes one InboundMessage that starts thread [1]', async () => {
    const t = makeTerminal();
    await t.type('@engineer fix the login bug');
    expect(t.engine.calls).toEqual([
      {
        kind: 'receive',
        message: {
          platform: 'terminal',
          eventId: 'ev-1',
          workspace: { slug: 'default' },
          channelId: 'general',
          thread: 'terminal:general:1',
          topLevel: true,
          messageRef: 'm1',
          senderId: 'you',
          text: '@engineer fix the login bug',
          receivedAt: new Date('2025-01-06T14:00:00Z'),
        },
      },
    ]);
    expect(t.lines()).toEqual([
      '  · Summon · workspace default · #general · as you. Type a message, or /help.',
      '[1] you: @engineer fix the login bug',
    ]);
    expect(t.chat.currentThread).toBe(1);
  });

  it('P3: the next line replies in the thread; after /new a line starts thread [2]', async () => {
    const t = makeTerminal();
    await t.type('@engineer fix the login bug', 'and add a test', '/new', '@qa review the release');
    expect(t.engine.received.map((m) => [m.thread, m.topLevel, m.eventId])).toEqual([
      ['terminal:general:1', true, 'ev-1'],
      ['terminal:general:1', false, 'ev-2'],
      ['terminal:general:2', true, 'ev-3'],
    ]);
    expect(t.lines()).toContain('  · the next message starts a new thread');
    expect(t.lines()).toContain('[2] you: @qa review the release');
  });

  it('/thread 1 selects thread [1], shows it, and the next line replies there', async () => {
    const t = makeTerminal();
    await t.type('first thread', '/new', 'second thread', '/thread 1', 'back in the first');
    expect(t.engine.received.at(-1)).toMatchObject({
      thread: 'terminal:general:1',
      topLevel: false,
      text: 'back in the first',
    });
    const lines = t.lines();
    const shown = lines.indexOf('── [1] first thread ──');
    expect(shown).toBeGreaterThan(0);
    expect(lines[shown + 1]).toBe('[1] you: first thread');
    expect(lines.at(-1)).toBe('[1] you: back in the first');
  });

  it('/thread n for a thread that does not exist says so and keeps the selection', async () => {
    const t = makeTerminal();
    await t.type('hello', '/thread 7');
    expect(t.lines().at(-1)).toBe('  ! there is no thread [7]: /threads lists them');
    expect(t.chat.currentThread).toBe(1);
  });

  it('N7: /open 2 and /fold 2 toggle note #2 of the current thread by its message id', async () => {
    const t = makeTerminal(coreThatPostsCards(() => t.platform));
    await t.type('@architect draft the report', '/open 2', '/fold 2');
    expect(t.engine.calls.slice(1)).toEqual([
      { kind: 'toggleNote', messageId: 'msg-b', action: 'open', actor },
      { kind: 'toggleNote', messageId: 'msg-b', action: 'fold', actor },
    ]);
    expect(t.lines().slice(2)).toEqual([
      '[1] ▸ note #1 note from this relay · msg-a',
      '[1] ▸ note #2 note from this relay · msg-b',
      '[1] approval #3 · engineer · push_to_remote: push to main',
      '    /approve 3 · /deny 3',
      '  ↻ [1] ▾ note #2 note from this relay · msg-b',
      '        The prompt.',
      '  ↻ [1] ▸ note #2 note from this relay · msg-b',
    ]);
  });

  it('/open n that is not a note, or with no thread selected, says so and calls nothing', async () => {
    const t = makeTerminal(coreThatPostsCards(() => t.platform));
    await t.type('/open 1', 'hello', '/open 3', '/open 9');
    expect(t.engine.calls.map((call) => call.kind)).toEqual(['receive']);
    const problems = t.lines().filter((line) => line.startsWith('  !'));
    expect(problems).toEqual([
      '  ! no thread selected: /thread <n> first (/threads lists them)',
      '  ! [1] has no note #3',
      '  ! [1] has no note #9',
    ]);
  });

  it('G4: /approve n decides the card through the core; a refusal prints its reason', async () => {
    const engine = coreThatPostsCards(() => t.platform);
    engine.behaviour.decideApproval = () => ({
      ok: false,
      reason: 'Only an owner, admin or approver may decide.',
    });
    const t = makeTerminal(engine);
    await t.type('@engineer push it', '/approve 3', '/approve 1');
    expect(t.engine.calls[1]).toEqual({
      kind: 'decideApproval',
      approvalId: 'ap-1',
      verdict: 'approve',
      actor,
    });
    expect(t.lines().slice(-2)).toEqual([
      '  ! [1] approval #3: Only an owner, admin or approver may decide.',
      '  ! [1] has no approval card #1',
    ]);
  });

  it('G4: /deny n with the core’s edit of the card prints the decision', async () => {
    const engine = coreThatPostsCards(() => t.platform);
    engine.behaviour.decideApproval = async (_approvalId, verdict) => {
      const ref = t.platform.threads.card(1, 3)?.ref ?? '';
      await t.platform.update(
        'terminal:general:1',
        ref,
        approval(verdict === 'deny' ? 'denied' : 'approved'),
      );
      return { ok: true };
    };
    const t = makeTerminal(engine);
    await t.type('@engineer push it', '/deny 3');
    expect(t.engine.calls[1]).toMatchObject({ kind: 'decideApproval', approvalId: 'ap-1', verdict: 'deny' });
    expect(t.lines().at(-1)).toBe('  ↻ [1] approval #3 · engineer · push_to_remote: denied by you');
  });

  it('an unknown command says so and suggests /help; a bad argument shows the usage', async () => {
    const t = makeTerminal();
    await t.type('/summon link ops', '/approve yes');
    expect(t.engine.calls).toEqual([]);
    expect(t.lines().slice(1)).toEqual([
      '  ! unknown command /summon: /help lists the commands',
      '  ! usage: /approve <n>',
    ]);
  });

  it('P8: a refused message prints the reason in its thread', async () => {
    const t = makeTerminal(
      new RecordingChatEngine({
        receive: () => ({ kind: 'refused', reason: 'This channel is not linked to a space.' }),
      }),
    );
    await t.type('hello');
    expect(t.lines().at(-1)).toBe('  ! [1] This channel is not linked to a space.');
  });

  it('a failing core prints one line, never a stack, and the chat goes on', async () => {
    const t = makeTerminal(
      new RecordingChatEngine({
        receive: () => {
          throw new Error('database is down\n    at Store.query (store.ts:1:1)');
        },
      }),
    );
    await t.type('hello', '/threads');
    const lines = t.lines();
    expect(lines).toContain('  ! [1] the message was not delivered: database is down');
    expect(lines.some((line) => line.includes('store.ts'))).toBe(false);
    expect(lines.at(-1)).toMatch(/^\* \[1\] hello/);
  });

  it('/threads lists number, title, message count and last activity, marking the current one', async () => {
    const t = makeTerminal();
    await t.type(
      '/threads',
      'fix the login bug in the auth module please, it is urgent',
      '/new',
      'hi',
      '/threads',
    );
    expect(t.lines()[1]).toBe('  · no threads yet: type a message to start one');
    expect(t.lines().slice(-2)).toEqual([
      '  [1] fix the login bug in the… · 1 message · 14:00',
      '* [2] hi · 1 message · 14:01',
    ]);
  });

  it('messages posted into another thread still print, prefixed with their thread', async () => {
    const t = makeTerminal();
    await t.type('first', '/new', 'second');
    await t.platform.post('terminal:general:1', {
      as: architect,
      content: { kind: 'text', text: 'Done.\nDetails follow.' },
    });
    await t.platform.tellPrivately('terminal:general:2', 'you', '@arch matched architect and archivist');
    expect(t.lines().slice(-3)).toEqual([
      '[1] architect: Done.',
      '    Details follow.',
      '  (only you) [2] @arch matched architect and archivist',
    ]);
    expect(t.chat.currentThread).toBe(2);
  });

  it('/help lists the commands; /quit stops reading', async () => {
    const t = makeTerminal();
    await t.type('/help', '/quit', 'never sent');
    expect(t.lines().some((line) => line.trim().startsWith('/open <n>'))).toBe(true);
    expect(t.lines().at(-1)).toBe('  · bye');
    expect(t.engine.calls).toEqual([]);
  });
});
