import {
  ACTIONS,
  approvalContent,
  noteContent,
  SLACK_LIMITS,
  statusContent,
} from '../../../../src/bots/slack/outbound/slack-cards';

const sectionTexts = (blocks: Record<string, unknown>[] | undefined) =>
  (blocks ?? []).flatMap((b) => {
    const text = (b as { text?: { text?: string } }).text?.text;
    const elements = ((b as { elements?: { text?: unknown }[] }).elements ?? []).flatMap((e) =>
      typeof e.text === 'string' ? [e.text] : [],
    );
    return [...(text === undefined ? [] : [text]), ...elements];
  });

const withinLimits = (content: { text: string; blocks?: Record<string, unknown>[] }) => {
  expect(content.text.length).toBeLessThanOrEqual(SLACK_LIMITS.updateText);
  expect((content.blocks ?? []).length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  for (const text of sectionTexts(content.blocks))
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
};

describe('Slack cards stay within Block Kit’s limits (they are edited with chat.update)', () => {
  it('P9: a status card with hundreds of tool rows keeps the newest and says how many are hidden', () => {
    const rows = Array.from({ length: 500 }, (_, i) => `ran step ${i} of the build`);
    const card = statusContent({ agent: 'engineer', state: 'working', headline: 'Working on it…', rows });
    withinLimits(card);
    expect(JSON.stringify(card.blocks)).toContain('ran step 499');
    expect(JSON.stringify(card.blocks)).toMatch(/\(\d+ earlier\)/);
  });

  it('P15: a working card with a run carries Stop (its value the run id); a stopped one has none', () => {
    const working = { agent: 'engineer', state: 'working' as const, headline: 'Working on it…', rows: [] };
    const card = statusContent({ ...working, stopRunId: 'run-1' });
    withinLimits(card);
    expect(card.blocks?.at(-1)).toEqual({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Stop' },
          action_id: ACTIONS.stop,
          value: 'run-1',
          style: 'danger',
        },
      ],
    });
    expect(JSON.stringify(statusContent(working).blocks)).not.toContain(ACTIONS.stop);
    const stopped = statusContent({
      ...working,
      state: 'stopped',
      headline: 'Stopped by @dana',
      stopRunId: 'run-1',
    });
    expect(JSON.stringify(stopped.blocks)).not.toContain(ACTIONS.stop);
  });

  it('N5, N7: a huge open note is shortened to fit; folded it is one row and an Open button', () => {
    const card = {
      messageId: 'm-1',
      row: 'note from this relay · build · working · 14:02',
      text: 'x'.repeat(200_000),
      open: true,
    };
    const open = noteContent(card);
    withinLimits(open);
    expect(JSON.stringify(open.blocks)).toContain(ACTIONS.noteFold);
    const folded = noteContent({ ...card, open: false });
    withinLimits(folded);
    expect(JSON.stringify(folded.blocks)).not.toContain('xxxx');
    expect(JSON.stringify(folded.blocks)).toContain(ACTIONS.noteOpen);
  });

  it('G4: a long approval card keeps whole lines within a section and says how many more', () => {
    const details = Array.from({ length: 300 }, (_, i) => `topic-${i + 1}: (new) → 2222222 — new branch`);
    const content = approvalContent({
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'push_to_remote',
      summary: 'push to acme/api topic-1 and 299 more refs',
      details,
      status: 'pending',
      decidedBy: null,
    });
    withinLimits(content);
    const sections = JSON.stringify(content.blocks);
    expect(sections).toMatch(/• topic-\d+: \(new\) → 2222222 — new branch\\n… and \d+ more lines/);
  });

  it('E4: an MCP call’s card shows its arguments in a code block and a third button; decided so, it says “for this conversation”', () => {
    const card = {
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'mcp',
      summary: 'engineer wants to call linear__create_issue',
      details: ['server: linear', 'tool: create_issue'],
      code: '{\n  "title": "<b>Bug</b>"\n}',
      status: 'pending' as const,
      decidedBy: null,
      offersConversation: true,
    };
    const pending = approvalContent(card);
    withinLimits(pending);
    const actions = (pending.blocks ?? []).find((b) => b.type === 'actions') as {
      elements: { action_id: string }[];
    };
    expect(actions.elements.map((e) => e.action_id)).toEqual([
      ACTIONS.approve,
      ACTIONS.approveConversation,
      ACTIONS.deny,
    ]);
    expect(pending.text).toContain('```{\n  "title": "&lt;b&gt;Bug&lt;/b&gt;"\n}```');
    const decided = approvalContent({
      ...card,
      status: 'approved',
      decidedBy: 'dana',
      forConversation: true,
    });
    expect(decided.text).toContain('Approved for this conversation by @dana');
    expect(JSON.stringify(decided.blocks)).not.toContain(ACTIONS.approveConversation);
    // A card that is not an MCP call's has only Approve and Deny.
    expect(JSON.stringify(approvalContent({ ...card, offersConversation: false }).blocks)).not.toContain(
      ACTIONS.approveConversation,
    );
  });

  it('G4: a decided approval has no buttons and names who decided; an agent’s markup is escaped', () => {
    const card = {
      approvalId: 'ap-1',
      agent: 'engineer',
      action: 'push_to_remote',
      summary: 'push <!channel> to main',
      details: ['a → b'],
      status: 'approved' as const,
      decidedBy: 'dana',
    };
    const decided = approvalContent(card);
    expect(JSON.stringify(decided.blocks)).not.toContain(ACTIONS.approve);
    expect(decided.text).toContain('Approved by @dana');
    expect(decided.text).toContain('&lt;!channel&gt;');
    expect(JSON.stringify(approvalContent({ ...card, status: 'pending', decidedBy: null }).blocks)).toContain(
      '"value":"ap-1"',
    );
  });
});
