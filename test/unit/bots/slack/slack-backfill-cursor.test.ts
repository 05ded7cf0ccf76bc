import { cursorSlackTs, slackTsCursor } from '../../../../src/bots/slack/inbound/slack-backfill';

describe('P11: a Slack ts as a channel cursor', () => {
  it('is the ts without its dot, the fraction padded to six digits, and reads back', () => {
    expect(slackTsCursor('1764700000.000123')).toBe('1764700000000123');
    expect(slackTsCursor('1764700000.5')).toBe('1764700000500000');
    expect(cursorSlackTs('1764700000000123')).toBe('1764700000.000123');
    expect(cursorSlackTs(slackTsCursor('1764700000.5'))).toBe('1764700000.500000');
  });

  it('orders as the ts does, so the cursor store never moves it back', () => {
    const ordered = ['1764700000.000009', '1764700000.000010', '1764700001.000001', '1764700010.000000'];
    const values = ordered.map((ts) => BigInt(slackTsCursor(ts)));
    expect([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(values);
    expect(new Set(values).size).toBe(ordered.length);
  });
});
