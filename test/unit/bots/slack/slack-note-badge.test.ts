import { noteContent } from '../../../../src/bots/slack/outbound/slack-cards';
import { noteBadge } from '../../../../src/bots/slack/outbound/slack-note-badge';
import type { NoteCard } from '../../../../src/core/ports/chat-platform';

const LINK = 'https://acme.slack.com/archives/C0GENERAL1/p1764700000000001';
const source = {
  title: 'fix the <login> bug',
  thread: 'slack:C0GENERAL1:1764700000.000001',
  sender: 'engineer',
};
const card = (open: boolean): NoteCard => ({
  messageId: 'm-1',
  row: 'note from this relay · fix the <login> bug · working · 14:02',
  text: 'please verify',
  open,
  source,
});
const rowElements = (content: { blocks?: Record<string, unknown>[] }) => {
  const first = content.blocks?.[0] as { elements?: { text: string }[] } | undefined;
  return (first?.elements ?? []).map((e) => e.text);
};

describe('N1–N3, P4: the Slack note badge', () => {
  it('N3: links the source conversation by its permalink, its title escaped; folded it stays one row', () => {
    expect(noteBadge(source, false, LINK)).toBe(`in <${LINK}|“fix the &lt;login&gt; bug”>`);
    const folded = noteContent(card(false), LINK);
    expect(folded.blocks?.[0]?.type).toBe('context');
    expect(rowElements(folded)).toEqual([
      ':memo: note from this relay · fix the &lt;login&gt; bug · working · 14:02',
      `in <${LINK}|“fix the &lt;login&gt; bug”>`,
    ]);
    expect(folded.text).toContain(`<${LINK}|`);
  });

  it('N2: the open form also says who sent it', () => {
    expect(rowElements(noteContent(card(true), LINK))[1]).toBe(
      `from *engineer* in <${LINK}|“fix the &lt;login&gt; bug”>`,
    );
  });

  it('N3: without a permalink (source gone, not on Slack, Slack refused) the title is plain text', () => {
    expect(noteBadge(source, false, null)).toBe('in “fix the &lt;login&gt; bug”');
    expect(noteBadge({ ...source, thread: null }, true, null)).toBe(
      'from *engineer* in “fix the &lt;login&gt; bug”',
    );
  });

  it('N2: an unknown title is left out; a link still has words to click', () => {
    expect(noteBadge({ ...source, title: null }, false, null)).toBeNull();
    expect(noteBadge({ ...source, title: null }, true, null)).toBe('from *engineer*');
    expect(noteBadge({ ...source, title: null }, false, LINK)).toBe(`in <${LINK}|source conversation>`);
  });

  it('a permalink that is not a plain http(s) URL is never put in a link', () => {
    expect(noteBadge(source, false, 'javascript:alert(1)')).toBe('in “fix the &lt;login&gt; bug”');
    expect(noteBadge(source, false, 'https://acme.slack.com/x|evil>')).toBe('in “fix the &lt;login&gt; bug”');
    expect(noteBadge(source, false, `${LINK}?thread_ts=1.2&cid=C1`)).toBe(
      `in <${LINK}?thread_ts=1.2&amp;cid=C1|“fix the &lt;login&gt; bug”>`,
    );
  });

  it('a note drawn without a source shows the row alone, as before', () => {
    const { source: _, ...bare } = card(false);
    expect(rowElements(noteContent(bare, LINK))).toHaveLength(1);
  });
});
