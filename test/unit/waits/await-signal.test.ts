import { awaitSignal } from '../../../src/core/waits/await-signal';
import { InProcessWaitSignals } from '../../../src/core/waits/in-process-wait-signals';
import { ManualClock } from '../../support/manual-clock';

describe('T1: awaitSignal', () => {
  const setUp = () => {
    const signals = new InProcessWaitSignals();
    const clock = new ManualClock();
    let state: string | null = null;
    let checks = 0;
    const check = async () => {
      checks += 1;
      return state;
    };
    return {
      signals,
      clock,
      check,
      set: (value: string) => {
        state = value;
      },
      checks: () => checks,
    };
  };

  it('checks once, sleeps, and checks again only when notified (no polling)', async () => {
    const t = setUp();
    const controller = new AbortController();
    const waiting = awaitSignal(t, { topic: 'x', check: t.check, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.checks()).toBe(1);
    await t.signals.notify('other topic');
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.checks()).toBe(1);
    t.set('decided');
    await t.signals.notify('x');
    expect(await waiting).toEqual({ state: 'ready', value: 'decided' });
    expect(t.checks()).toBe(2);
    expect(t.signals.topicCount()).toBe(0);
  });

  it('subscribes before its first check, so a change already stored is seen at once', async () => {
    const t = setUp();
    t.set('already');
    const outcome = await awaitSignal(t, {
      topic: 'x',
      check: t.check,
      signal: new AbortController().signal,
    });
    expect(outcome).toEqual({ state: 'ready', value: 'already' });
  });

  it('ends at its end time on the clock, after one last check', async () => {
    const t = setUp();
    const until = new Date(t.clock.now().getTime() + 60_000);
    const waiting = awaitSignal(t, {
      topic: 'x',
      check: t.check,
      until,
      signal: new AbortController().signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.clock.pending()).toBe(1);
    t.clock.advance(60_000);
    expect(await waiting).toEqual({ state: 'expired' });
    expect(t.checks()).toBe(2);
    expect(t.clock.pending()).toBe(0);
  });

  it('an abort ends the wait and cancels its timer', async () => {
    const t = setUp();
    const controller = new AbortController();
    const until = new Date(t.clock.now().getTime() + 60_000);
    const waiting = awaitSignal(t, { topic: 'x', check: t.check, until, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await waiting).toEqual({ state: 'aborted' });
    expect(t.clock.pending()).toBe(0);
    expect(t.signals.topicCount()).toBe(0);
  });
});
