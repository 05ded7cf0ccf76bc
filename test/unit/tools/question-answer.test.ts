import { parseAnswer } from '../../../src/core/tools/question-answer';

describe('parseAnswer (N13)', () => {
  const options = ['PostgreSQL', 'SQLite'];

  it('an option number picks that option, counted from 1', () => {
    expect(parseAnswer('2', options)).toEqual({ ok: true, text: 'SQLite' });
    expect(parseAnswer(' #1 ', options)).toEqual({ ok: true, text: 'PostgreSQL' });
  });

  it('a number out of range is refused with the range', () => {
    expect(parseAnswer('3', options)).toEqual({
      ok: false,
      reason: 'There is no option 3: answer 1–2, or in your own words.',
    });
    expect(parseAnswer('0', options)).toMatchObject({ ok: false });
  });

  it('words are the answer as written; a number is plain text when nothing was offered', () => {
    expect(parseAnswer('  MySQL, actually ', options)).toEqual({ ok: true, text: 'MySQL, actually' });
    expect(parseAnswer('42', [])).toEqual({ ok: true, text: '42' });
  });

  it('an empty answer is refused', () => {
    expect(parseAnswer('   ', options)).toEqual({ ok: false, reason: 'An answer cannot be empty.' });
  });
});
