import { ServiceUnavailableError, ValidationError } from '../../../src/core/errors';
import { OutageWatch } from '../../../src/core/outage/outage-watch';
import { retryWhileUnavailable } from '../../../src/core/outage/retry-while-unavailable';
import { silentLogger } from '../../../src/core/ports/logger';
import { ManualClock } from '../../support/manual-clock';

const away = (maybeDone = false) =>
  new ServiceUnavailableError('database', 'The database could not be reached: ECONNREFUSED', maybeDone);

/** Work that fails with `errors` in turn, then answers `done`; `sleeps` records each backoff. */
function flaky(errors: Error[]) {
  const sleeps: number[] = [];
  let calls = 0;
  const work = async () => {
    calls += 1;
    const error = errors.shift();
    if (error !== undefined) throw error;
    return 'done';
  };
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  return { work, sleep, sleeps, calls: () => calls };
}

const backoff = { baseMs: 100, maxMs: 400, giveUpAfterMs: 2000 };

describe('T2 retryWhileUnavailable', () => {
  it('T2: runs the work again, with capped exponential backoff, until the service is back', async () => {
    const { work, sleep, sleeps, calls } = flaky([away(), away(), away(), away()]);
    await expect(retryWhileUnavailable(work, { backoff, sleep })).resolves.toBe('done');
    expect(calls()).toBe(5);
    expect(sleeps).toEqual([100, 200, 400, 400]);
  });

  it('T2: a try that may have taken effect (a COMMIT in flight) is not repeated', async () => {
    const { work, sleep, calls } = flaky([away(true)]);
    await expect(retryWhileUnavailable(work, { backoff, sleep })).rejects.toMatchObject({ maybeDone: true });
    expect(calls()).toBe(1);
  });

  it('T2: any other error is thrown at once', async () => {
    const { work, sleep, calls } = flaky([new ValidationError('bad input')]);
    await expect(retryWhileUnavailable(work, { backoff, sleep })).rejects.toThrow('bad input');
    expect(calls()).toBe(1);
  });

  it('T2: gives up, with the last error, once the backoff has added up to the window', async () => {
    const { work, sleep, sleeps } = flaky(Array.from({ length: 50 }, () => away()));
    await expect(retryWhileUnavailable(work, { backoff, sleep })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(backoff.giveUpAfterMs);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(backoff.giveUpAfterMs + backoff.maxMs);
  });

  it('T2: an aborted wait stops retrying', async () => {
    const controller = new AbortController();
    const { work, calls } = flaky([away(), away()]);
    const sleep = async () => controller.abort();
    await expect(
      retryWhileUnavailable(work, { backoff, sleep, signal: controller.signal }),
    ).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(calls()).toBe(2);
  });
});

describe('A12 OutageWatch', () => {
  it('A12: excuses silence while a service is down and for the grace after it is back, then not', () => {
    const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
    const watch = new OutageWatch(clock, silentLogger);
    const restored: string[] = [];
    watch.onRestored((service) => restored.push(service));
    expect(watch.silenceIsExcused(1000)).toBe(false);

    watch.unavailable('database', away());
    clock.advance(5000);
    expect(watch.silenceIsExcused(1000)).toBe(true);

    watch.reached('database');
    expect(restored).toEqual(['database']);
    clock.advance(999);
    expect(watch.silenceIsExcused(1000)).toBe(true);
    clock.advance(1);
    expect(watch.silenceIsExcused(1000)).toBe(false);

    // Reaching a service that was never down tells nobody.
    watch.reached('redis');
    expect(restored).toEqual(['database']);
  });

  it('A12: a Redis outage excuses no silence (heartbeats are database writes), but its return is told', () => {
    const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));
    const watch = new OutageWatch(clock, silentLogger);
    const restored: string[] = [];
    watch.onRestored((service) => restored.push(service));
    watch.unavailable('redis', new ServiceUnavailableError('redis', 'Connection is closed.', false));
    expect(watch.silenceIsExcused(1000)).toBe(false);
    watch.reached('redis');
    expect(restored).toEqual(['redis']);
    expect(watch.silenceIsExcused(1000)).toBe(false);
  });
});
