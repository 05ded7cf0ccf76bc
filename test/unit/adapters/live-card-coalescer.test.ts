import { LiveCardCoalescer } from '../../../src/adapters/redis/live-card-coalescer';
import { boundedCard, LIVE_CARD_ROWS, type LiveCard } from '../../../src/core/ports/live-card-relay';

const card = (runId: string, seq: number, rows: string[] = []): LiveCard => ({
  runId,
  workspaceId: 'ws-1',
  headline: 'Working on it…',
  rows,
  tokens: 0,
  seq,
  at: seq,
});

describe('O5 live cards crossing processes: coalesced per run, bounded', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const coalescer = () => {
    const sent: string[] = [];
    const c = new LiveCardCoalescer((sentCard) => sent.push(`${sentCard.runId}#${sentCard.seq}`), 1000);
    return { c, sent };
  };

  it('O5 a run’s first change goes at once; changes within the window go as one, the newest, when it closes', () => {
    const { c, sent } = coalescer();
    c.push(card('a', 1));
    expect(sent).toEqual(['a#1']);
    for (let seq = 2; seq <= 40; seq += 1) c.push(card('a', seq));
    jest.advanceTimersByTime(999);
    expect(sent).toEqual(['a#1']);
    jest.advanceTimersByTime(1);
    expect(sent).toEqual(['a#1', 'a#40']);
    // The window sent something, so a next one is open: a change in it waits for its end.
    c.push(card('a', 41));
    expect(sent).toEqual(['a#1', 'a#40']);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual(['a#1', 'a#40', 'a#41']);
    // A quiet window closes with nothing; the next change goes at once again.
    jest.advanceTimersByTime(1000);
    c.push(card('a', 42));
    expect(sent).toEqual(['a#1', 'a#40', 'a#41', 'a#42']);
    c.close();
  });

  it('O5 runs are coalesced apart: one busy run does not hold back another', () => {
    const { c, sent } = coalescer();
    c.push(card('a', 1));
    c.push(card('a', 2));
    c.push(card('b', 1));
    expect(sent).toEqual(['a#1', 'b#1']);
    jest.advanceTimersByTime(1000);
    expect(sent).toEqual(['a#1', 'b#1', 'a#2']);
    c.close();
  });

  it('O5 an ended run’s pending change is dropped, never sent after its end', () => {
    const { c, sent } = coalescer();
    c.push(card('a', 1));
    c.push(card('a', 2));
    c.drop('a');
    jest.advanceTimersByTime(5000);
    expect(sent).toEqual(['a#1']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('O5 a card crosses with the rows the console shows, the older ones counted, long texts cut', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `▸ call ${i + 1}`);
    rows[29] = `✓ ${'x'.repeat(5000)}`;
    const crossed = boundedCard(card('a', 3, rows));
    expect(crossed.rows).toHaveLength(LIVE_CARD_ROWS);
    expect(crossed.rows[0]).toBe(`▸ call ${30 - LIVE_CARD_ROWS + 1}`);
    expect(crossed.earlier).toBe(30 - LIVE_CARD_ROWS);
    expect(crossed.rows.at(-1)?.length).toBe(500);
    expect(JSON.stringify(crossed).length).toBeLessThan(2000);
    // Bounded twice, the count of older rows is kept.
    expect(boundedCard(crossed).earlier).toBe(30 - LIVE_CARD_ROWS);
  });
});
