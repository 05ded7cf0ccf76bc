import { TerminalThreads, titleOf } from '../../../../src/bots/terminal/terminal-threads';
import { NotFoundError, ValidationError } from '../../../../src/core/errors';
import type { OutboundMessage } from '../../../../src/core/ports/chat-platform';

const at = new Date('2025-01-06T14:00:00Z');
const note = (messageId: string): OutboundMessage => ({
  as: { kind: 'system' },
  content: { kind: 'note', card: { messageId, row: 'note from this relay', text: 'prompt', open: false } },
});
const reply: OutboundMessage = { as: { kind: 'system' }, content: { kind: 'text', text: 'ok' } };

describe('TerminalThreads', () => {
  it('numbers threads in the order they appear, after any the core posted into', () => {
    const threads = new TerminalThreads('general');
    expect(threads.start(at).id).toBe('terminal:general:1');
    threads.addPosted(threads.numberOf('terminal:general:5'), reply, at);
    expect(threads.start(at).number).toBe(6);
    expect(threads.list().map((thread) => thread.number)).toEqual([1, 5, 6]);
  });

  it('refuses thread ids of another channel or platform', () => {
    const threads = new TerminalThreads('general');
    expect(() => threads.numberOf('terminal:random:1')).toThrow(ValidationError);
    expect(() => threads.numberOf('slack:C1:1712345678.000100')).toThrow(ValidationError);
  });

  it('N7: notes and approval cards get short numbers per thread; an edit keeps the number', () => {
    const threads = new TerminalThreads('general');
    threads.addPosted(1, reply, at);
    const first = threads.addPosted(1, note('msg-1'), at);
    threads.addPosted(1, note('msg-2'), at);
    const other = threads.addPosted(2, note('msg-3'), at);
    expect([first.cardNumber, other.cardNumber]).toEqual([1, 1]);
    const { next } = threads.replace(1, first.ref, note('msg-1'), at);
    expect(next.cardNumber).toBe(1);
    expect(threads.card(1, 2)?.message).toEqual(note('msg-2'));
    expect(threads.get(1)?.entries).toHaveLength(3);
  });

  it('refs are shared by typed lines and posts; an edit must name a ref of that thread', () => {
    const threads = new TerminalThreads('general');
    expect(threads.addPerson(1, 'you', 'hello', at).ref).toBe('m1');
    const posted = threads.addPosted(1, reply, at);
    expect(posted.ref).toBe('m2');
    expect(() => threads.replace(2, posted.ref, reply, at)).toThrow(NotFoundError);
    expect(() => threads.replace(1, 'm1', reply, at)).toThrow(NotFoundError);
  });

  it('a title is the first words of the first message', () => {
    expect(titleOf('  @engineer fix the login bug ')).toBe('@engineer fix the login bug');
    expect(titleOf('one two three four five six seven')).toBe('one two three four five six…');
    expect(titleOf('a'.repeat(50))).toBe(`${'a'.repeat(40)}…`);
  });
});
