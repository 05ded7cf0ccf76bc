import fc from 'fast-check';
import { sqlLiteral } from '../../../src/storage/store/statements-together';

/** T3: statements sent together carry their values in their text: only what cannot carry SQL. */
describe('sqlLiteral', () => {
  it('writes uuids, integers and dates as typed literals', () => {
    expect(sqlLiteral('0b8f3c1e-0e4a-4c5e-9f1d-2a3b4c5d6e7f')).toBe(
      "'0b8f3c1e-0e4a-4c5e-9f1d-2a3b4c5d6e7f'::uuid",
    );
    expect(sqlLiteral(50)).toBe('50');
    expect(sqlLiteral(new Date(Date.UTC(2026, 11, 2, 1, 2, 3, 4)))).toBe(
      "'2026-12-02T01:02:03.004Z'::timestamptz",
    );
  });

  it('refuses anything else before it is sent: text, fractions, invalid dates', () => {
    expect(() => sqlLiteral("x'; DROP TABLE runs; --")).toThrow(/Not a uuid literal/);
    expect(() => sqlLiteral("0b8f3c1e-0e4a-4c5e-9f1d-2a3b4c5d6e7f'")).toThrow(/Not a uuid literal/);
    expect(() => sqlLiteral(1.5)).toThrow(/Not an integer literal/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/Not an integer literal/);
    expect(() => sqlLiteral(new Date(Number.NaN))).toThrow(/Not a valid date literal/);
  });

  it('never lets a quote through, whatever the string', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        let written: string | null = null;
        try {
          written = sqlLiteral(value);
        } catch {
          return;
        }
        expect(written).toMatch(/^'[0-9a-f-]{36}'::uuid$/i);
      }),
    );
  });
});
