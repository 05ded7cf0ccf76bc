import { renderMessage, renderMessageUpdate } from '../../../../src/bots/terminal/terminal-cards';
import type { ApprovalCard, OutboundMessage, StatusCard } from '../../../../src/core/ports/chat-platform';

const engineer = { kind: 'agent', name: 'engineer', avatarUrl: null } as const;
const status = (card: Partial<StatusCard>): OutboundMessage => ({
  as: engineer,
  content: {
    kind: 'status',
    card: { agent: 'engineer', state: 'working', headline: 'Working on it…', rows: [], ...card },
  },
});
const note = (open: boolean): OutboundMessage => ({
  as: { kind: 'agent', name: 'architect', avatarUrl: null },
  content: {
    kind: 'note',
    card: {
      messageId: 'msg-7',
      row: 'note from this relay · report builder · answered below · 14:02',
      text: 'Outline the weekly report.\nKeep it short.',
      open,
    },
  },
});
const approval = (card: Partial<ApprovalCard>): OutboundMessage => ({
  as: engineer,
  content: {
    kind: 'approval',
    card: {
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'push_to_remote',
      summary: 'push 2 commits to acme/api main',
      details: ['acme/api · main', 'a1b2c3d → e4f5a6b'],
      status: 'pending',
      decidedBy: null,
      ...card,
    },
  },
});

describe('terminal rendering', () => {
  it('P2: an agent’s text under its name, continuation lines indented', () => {
    const message: OutboundMessage = {
      as: engineer,
      content: { kind: 'text', text: 'Fixed.\n\nSee `auth.ts`.' },
    };
    expect(renderMessage('[1]', message, null)).toEqual(['[1] engineer: Fixed.', '', '    See `auth.ts`.']);
  });

  it('a system message is marked with ·', () => {
    const message: OutboundMessage = {
      as: { kind: 'system' },
      content: { kind: 'text', text: '@qa was not woken: more than three agents (M19)' },
    };
    expect(renderMessage('[2]', message, null)).toEqual([
      '[2] · @qa was not woken: more than three agents (M19)',
    ]);
  });

  it('P9: a status card is one line, then one row per tool call', () => {
    expect(renderMessage('[1]', status({ rows: ['git clone acme/api', 'npm test'] }), null)).toEqual([
      '[1] engineer ⋯ Working on it… (2 tool calls)',
      '    · git clone acme/api',
      '    · npm test',
    ]);
    expect(renderMessage('[1]', status({ headline: 'Thinking…' }), null)).toEqual([
      '[1] engineer ⋯ Thinking…',
    ]);
    expect(
      renderMessage('[1]', status({ state: 'failed', headline: 'Failed', rows: ['npm test'] }), null),
    ).toEqual(['[1] engineer ✗ failed (1 tool call)', '    · npm test']);
  });

  it('P9: an edit of a status card prints its headline and only the new rows', () => {
    const before = status({ rows: ['git clone acme/api'] });
    const after = status({
      state: 'done',
      headline: 'Pushed the fix',
      rows: ['git clone acme/api', 'git push'],
    });
    expect(renderMessageUpdate('[3]', before, after, null)).toEqual([
      '  ↻ [3] engineer ✓ done · Pushed the fix (2 tool calls)',
      '        · git push',
    ]);
  });

  it('P4, N5: a folded note is one row with its number', () => {
    expect(renderMessage('[1]', note(false), 2)).toEqual([
      '[1] ▸ note #2 note from this relay · report builder · answered below · 14:02',
    ]);
  });

  const sourced = (
    open: boolean,
    thread: string | null,
    title: string | null = 'login bug',
  ): OutboundMessage => {
    const base = note(open);
    if (base.content.kind !== 'note') throw new Error('not a note');
    return {
      ...base,
      content: { ...base.content, card: { ...base.content.card, source: { title, thread, sender: 'qa' } } },
    };
  };

  it('N1–N3: the badge links a note to its source thread on this screen; the open form says who sent it', () => {
    expect(renderMessage('[4]', sourced(false, 'terminal:general:2'), 5)).toEqual([
      '[4] ▸ note #5 note from this relay · report builder · answered below · 14:02 ↪ [2]',
    ]);
    expect(renderMessage('[4]', sourced(true, 'terminal:general:2'), 5)).toEqual([
      '[4] ▾ note #5 note from this relay · report builder · answered below · 14:02',
      '    from qa in “login bug” ↪ [2]',
      '    Outline the weekly report.',
      '    Keep it short.',
    ]);
  });

  it('N2, N3: a source that is gone or elsewhere is plain text; an unknown title is left out', () => {
    expect(renderMessage('[4]', sourced(false, null), 5)).toEqual([
      '[4] ▸ note #5 note from this relay · report builder · answered below · 14:02',
    ]);
    expect(renderMessage('[4]', sourced(true, 'slack:C0GENERAL1:1764700000.000001', null), 5)).toEqual([
      '[4] ▾ note #5 note from this relay · report builder · answered below · 14:02',
      '    from qa',
      '    Outline the weekly report.',
      '    Keep it short.',
    ]);
  });

  it('N7: an open note shows the row, then the whole note indented', () => {
    expect(renderMessage('[1]', note(true), 2)).toEqual([
      '[1] ▾ note #2 note from this relay · report builder · answered below · 14:02',
      '    Outline the weekly report.',
      '    Keep it short.',
    ]);
    expect(renderMessageUpdate('[1]', note(false), note(true), 2)).toEqual([
      '  ↻ [1] ▾ note #2 note from this relay · report builder · answered below · 14:02',
      '        Outline the weekly report.',
      '        Keep it short.',
    ]);
  });

  it('G4: an approval card has its number, summary, details and the commands to decide', () => {
    expect(renderMessage('[1]', approval({}), 1)).toEqual([
      '[1] approval #1 · engineer · push_to_remote: push 2 commits to acme/api main',
      '    acme/api · main',
      '    a1b2c3d → e4f5a6b',
      '    /approve 1 · /deny 1',
    ]);
  });

  it('G4: a decided card shows the decision and who made it; expired counts as denied', () => {
    const approved = approval({ status: 'approved', decidedBy: 'dana' });
    expect(renderMessage('[1]', approved, 1).at(-1)).toBe('    approved by dana');
    expect(renderMessageUpdate('[1]', approval({}), approved, 1)).toEqual([
      '  ↻ [1] approval #1 · engineer · push_to_remote: approved by dana',
    ]);
    expect(
      renderMessageUpdate('[1]', approval({}), approval({ status: 'denied', decidedBy: 'dana' }), 1),
    ).toEqual(['  ↻ [1] approval #1 · engineer · push_to_remote: denied by dana']);
    expect(renderMessage('[1]', approval({ status: 'expired' }), 1).at(-1)).toBe(
      '    expired (counts as denied)',
    );
  });

  it('W1: a routine proposal’s card says confirmed or cancelled, and by whom', () => {
    const proposal = (status: 'approved' | 'denied') =>
      approval({ action: 'schedule_routine', summary: 'routine ops/standup', status, decidedBy: 'dana' });
    expect(renderMessage('[1]', proposal('approved'), 1).at(-1)).toBe('    confirmed by dana');
    expect(renderMessage('[1]', proposal('denied'), 1).at(-1)).toBe('    cancelled by dana');
  });

  it('E4: an MCP call’s card shows its arguments and how to approve it for the conversation; decided so, it says', () => {
    const mcp = approval({
      action: 'mcp',
      summary: 'engineer wants to call linear__create_issue',
      details: ['server: linear', 'tool: create_issue'],
      code: '{\n  "title": "Bug"\n}',
      offersConversation: true,
    });
    expect(renderMessage('[1]', mcp, 1)).toEqual([
      '[1] approval #1 · engineer · mcp: engineer wants to call linear__create_issue',
      '    server: linear',
      '    tool: create_issue',
      '    {',
      '      "title": "Bug"',
      '    }',
      '    /approve 1 · /approve-conversation 1 · /deny 1',
    ]);
    const decided = approval({ action: 'mcp', status: 'approved', decidedBy: 'dana', forConversation: true });
    expect(renderMessageUpdate('[1]', mcp, decided, 1)).toEqual([
      '  ↻ [1] approval #1 · engineer · mcp: approved for this conversation by dana',
    ]);
  });

  it('N13: a question card lists its options numbered from 1 and how to answer; the edit shows the answer', () => {
    const card = (answered: boolean): OutboundMessage => ({
      as: engineer,
      content: {
        kind: 'question',
        card: {
          questionId: 'q-1',
          agent: 'engineer',
          text: 'Which database?',
          options: ['PostgreSQL', 'SQLite'],
          status: answered ? 'answered' : 'pending',
          answer: answered ? 'SQLite' : null,
          answeredBy: answered ? 'dana' : null,
        },
      },
    });
    expect(renderMessage('[1]', card(false), 3)).toEqual([
      '[1] question #3 · engineer asks: Which database?',
      '    1. PostgreSQL',
      '    2. SQLite',
      '    /answer <n> or /answer <text>',
    ]);
    expect(renderMessageUpdate('[1]', card(false), card(true), 3).at(-1)).toBe(
      '        answered by dana: SQLite',
    );
  });
});
