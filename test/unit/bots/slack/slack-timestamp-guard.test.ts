import { futureTimestampRefusal } from '../../../../src/bots/slack/inbound/slack-timestamp-guard';

describe('Summon’s refusal of future Slack timestamps', () => {
  const now = 1_764_700_000_000;
  it('accepts now, the recent past and up to five minutes ahead', () => {
    for (const offset of [0, -60, -600, 299]) {
      expect(futureTimestampRefusal(String(now / 1000 + offset), now)).toBeNull();
    }
  });
  it('refuses more than five minutes ahead and a timestamp that is not a number', () => {
    expect(futureTimestampRefusal(String(now / 1000 + 301), now)).toMatch(/future/);
    expect(futureTimestampRefusal('soon', now)).toMatch(/not a number/);
  });
});
