import type { RoutineTrigger } from '../../../src/core/model/routines/routine';
import { nextTimes, timesBetween } from '../../../src/core/routines/routine-schedule';
import { cronInWords, triggerInWords } from '../../../src/core/routines/routine-words';

const schedule = (cron: string, timezone: string): RoutineTrigger => ({ kind: 'schedule', cron, timezone });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('W1, W2 a routine’s times', () => {
  it('W2 a cron in Europe/Prague keeps its wall-clock time across the autumn DST change', () => {
    // 01:30 is CEST (UTC+2) on Oct 25 2026, then CET (UTC+1) from Oct 26.
    const times = nextTimes(schedule('30 1 * * *', 'Europe/Prague'), new Date('2026-10-24T12:00:00Z'), 3);
    expect(iso(times)).toEqual([
      '2026-10-24T23:30:00.000Z',
      '2026-10-26T00:30:00.000Z',
      '2026-10-27T00:30:00.000Z',
    ]);
  });

  it('W2 a cron in America/New_York across the spring DST change, once a day, never twice', () => {
    const times = nextTimes(schedule('0 9 * * *', 'America/New_York'), new Date('2026-03-07T00:00:00Z'), 3);
    expect(iso(times)).toEqual([
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('W2 the next time is strictly after the time it counts from', () => {
    const trigger = schedule('0 9 * * *', 'UTC');
    expect(iso(nextTimes(trigger, new Date('2026-01-01T09:00:00Z'), 1))).toEqual([
      '2026-01-02T09:00:00.000Z',
    ]);
    expect(iso(nextTimes(trigger, new Date('2026-01-01T08:59:59Z'), 1))).toEqual([
      '2026-01-01T09:00:00.000Z',
    ]);
  });

  it('W2 an `at` fires once, only while ahead; a webhook has no time', () => {
    const at: RoutineTrigger = { kind: 'at', at: '2026-06-01T10:00:00+02:00' };
    expect(iso(nextTimes(at, new Date('2026-06-01T07:59:00Z'), 3))).toEqual(['2026-06-01T08:00:00.000Z']);
    expect(nextTimes(at, new Date('2026-06-01T08:00:00Z'), 3)).toEqual([]);
    expect(nextTimes({ kind: 'webhook' }, new Date('2026-06-01T08:00:00Z'), 3)).toEqual([]);
  });

  it('W3 lists the scheduled times a stretch of downtime missed, bounded', () => {
    const trigger = schedule('0 */6 * * *', 'UTC');
    const missed = timesBetween(
      trigger,
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-01T13:00:00Z'),
      10,
    );
    expect(iso(missed)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T06:00:00.000Z',
      '2026-01-01T12:00:00.000Z',
    ]);
    expect(
      timesBetween(trigger, new Date('2026-01-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'), 5),
    ).toHaveLength(5);
  });
});

describe('W1 a trigger in words', () => {
  it.each([
    ['0 9 * * 1-5', 'on weekdays at 09:00'],
    ['30 7 * * *', 'every day at 07:30'],
    ['0 18 * * 0,6', 'on weekends at 18:00'],
    ['15 8 * * 1,3', 'every Mon, Wed at 08:15'],
    ['0 6 1 * *', 'every month on day 1 at 06:00'],
    ['0 0 24 12 *', 'every year on Dec 24 at 00:00'],
    ['*/15 * * * *', 'every day, every 15 minutes'],
    ['5 * * * *', 'every day, every hour at minute 5'],
    ['0 9-17 * * *', 'on cron "0 9-17 * * *"'],
  ])('W1 %s reads as "%s"', (cron, words) => {
    expect(cronInWords(cron)).toBe(words);
  });

  it('W1 names the time zone, the one time, or the webhook', () => {
    expect(triggerInWords(schedule('0 9 * * 1-5', 'Europe/Prague'))).toBe(
      'on weekdays at 09:00 (Europe/Prague)',
    );
    expect(triggerInWords({ kind: 'at', at: '2026-06-01T10:00:00+02:00' })).toBe(
      'once at 2026-06-01T10:00:00+02:00',
    );
    expect(triggerInWords({ kind: 'webhook' })).toBe('on a signed webhook');
  });
});
