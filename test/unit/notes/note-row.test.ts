import { ValidationError } from '../../../src/core/errors';
import { formatNoteTime, noteRowText, noteTurnStateOf } from '../../../src/core/notes';

const sentAt = new Date('2026-11-29T14:05:09Z');

describe('noteRowText', () => {
  it('N5: a note folds into one row: relay, session, turn state, time', () => {
    const row = noteRowText({
      sender: { relayName: 'build-box', paired: true, sessionTitle: 'report builder' },
      turnState: 'answered',
      sentAt,
    });
    expect(row).toBe('note from build-box · report builder · answered below · 14:05');
  });

  it('N5: a relay without a name is "this relay"', () => {
    expect(noteRowText({ sender: { sessionTitle: 'nightly digest' }, turnState: 'working', sentAt })).toBe(
      'note from this relay · nightly digest · working… · 14:05',
    );
  });

  it('N5: a paired relay without a known name is never called "this relay"', () => {
    expect(noteRowText({ sender: { paired: true }, turnState: 'failed' })).toBe(
      'note from a paired relay · failed',
    );
  });

  it.each([
    ['working', 'working…'],
    ['answered', 'answered below'],
    ['failed', 'failed'],
    ['stopped', 'stopped'],
  ] as const)('N5: the turn state %s reads "%s"', (turnState, words) => {
    expect(noteRowText({ sender: {}, turnState })).toBe(`note from this relay · ${words}`);
  });

  it('N2: unknown parts are left out', () => {
    expect(noteRowText({ sender: {} })).toBe('note from this relay');
    expect(
      noteRowText({ sender: { relayName: '  ', sessionTitle: null }, turnState: null, sentAt: null }),
    ).toBe('note from this relay');
    expect(noteRowText({ sender: { relayName: 'build-box' }, sentAt })).toBe('note from build-box · 14:05');
    expect(noteRowText({ sender: {}, sentAt: new Date(Number.NaN) })).toBe('note from this relay');
  });

  it('N5: a title is kept on one row', () => {
    expect(noteRowText({ sender: { sessionTitle: ' report\n  builder\t' } })).toBe(
      'note from this relay · report builder',
    );
  });

  it('N5: the time is formatted in a given time zone, or by a given formatter', () => {
    const input = { sender: { relayName: 'build-box' }, sentAt };
    expect(noteRowText(input, { timeZone: 'Europe/Prague' })).toBe('note from build-box · 15:05');
    expect(noteRowText(input, { formatTime: (at) => at.toISOString() })).toBe(
      'note from build-box · 2026-11-29T14:05:09.000Z',
    );
  });
});

describe('formatNoteTime (N5)', () => {
  it('is UTC HH:MM on a 24-hour clock by default', () => {
    expect(formatNoteTime(new Date('2026-01-02T03:04:59Z'))).toBe('03:04');
    expect(formatNoteTime(new Date('2026-01-02T23:59:00Z'))).toBe('23:59');
    expect(formatNoteTime(new Date('2026-01-02T00:00:00Z'), { timeZone: 'UTC' })).toBe('00:00');
  });

  it('uses a 24-hour clock in other time zones too', () => {
    expect(formatNoteTime(new Date('2026-07-01T22:30:00Z'), { timeZone: 'America/New_York' })).toBe('18:30');
    expect(formatNoteTime(new Date('2026-07-01T23:30:00Z'), { timeZone: 'Asia/Tokyo' })).toBe('08:30');
  });

  it('rejects an unknown time zone with a sentence that says what to use', () => {
    expect(() => formatNoteTime(sentAt, { timeZone: 'Mars/Olympus' })).toThrow(ValidationError);
    expect(() => formatNoteTime(sentAt, { timeZone: 'Mars/Olympus' })).toThrow(/IANA name/);
  });
});

describe('noteTurnStateOf (N9)', () => {
  it.each([
    ['queued', {}, 'working'],
    ['running', {}, 'working'],
    ['succeeded', {}, 'answered'],
    ['failed', {}, 'failed'],
    ['failed', { stopped: true }, 'stopped'],
    ['succeeded', { stopped: true }, 'answered'],
  ] as const)('a %s run %j is %s', (status, options, state) => {
    expect(noteTurnStateOf(status, options)).toBe(state);
  });
});
