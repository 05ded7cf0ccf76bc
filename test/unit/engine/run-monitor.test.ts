import { RunMonitor } from '../../../src/core/engine/turn/run-monitor';
import type { RunLiveness } from '../../../src/core/model/run';

describe('RunMonitor (A12 liveness)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const monitor = (silenceMs = 1000, loops = 3) => {
    const changes: RunLiveness[] = [];
    const m = new RunMonitor(silenceMs, loops, (l) => changes.push(l));
    m.start();
    return { m, changes };
  };
  const call = (summary: string) => ({ type: 'tool_start' as const, callId: summary, tool: 'bash', summary });

  it('marks a run stalled after the silence timeout, and ok again at the next event', () => {
    const { m, changes } = monitor();
    jest.advanceTimersByTime(999);
    expect(changes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(changes).toEqual(['stalled']);
    m.observe({ type: 'thinking' });
    expect(changes).toEqual(['stalled', 'ok']);
    // The timer that fired is armed again by that event.
    jest.advanceTimersByTime(999);
    expect(changes).toEqual(['stalled', 'ok']);
    jest.advanceTimersByTime(1);
    expect(changes).toEqual(['stalled', 'ok', 'stalled']);
    m.stop();
  });

  it('A12, N11: while a tool waits the run is never marked stalled; the timer restarts when the wait ends', () => {
    const { m, changes } = monitor();
    jest.advanceTimersByTime(500);
    m.hold(true);
    m.hold(true);
    jest.advanceTimersByTime(10_000);
    m.hold(false);
    jest.advanceTimersByTime(10_000);
    expect(changes).toEqual([]);
    // An event while waiting does not re-arm it either.
    m.observe({ type: 'thinking' });
    jest.advanceTimersByTime(10_000);
    expect(changes).toEqual([]);
    m.hold(false);
    jest.advanceTimersByTime(999);
    expect(changes).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(changes).toEqual(['stalled']);
    m.stop();
  });

  it('each event restarts the silence timer', () => {
    const { m, changes } = monitor();
    for (let i = 0; i < 5; i++) {
      jest.advanceTimersByTime(900);
      m.observe({ type: 'text', delta: '.' });
    }
    expect(changes).toEqual([]);
    m.stop();
  });

  it('marks a run looping when the same tool call repeats, and ok when it does something else', () => {
    const { m, changes } = monitor(60_000, 3);
    m.observe(call('ls'));
    m.observe(call('ls'));
    expect(changes).toEqual([]);
    m.observe(call('ls'));
    expect(changes).toEqual(['looping']);
    m.observe(call('npm test'));
    expect(changes).toEqual(['looping', 'ok']);
    m.stop();
  });

  it('stop() ends the watchdog', () => {
    const { m, changes } = monitor();
    m.stop();
    jest.advanceTimersByTime(10_000);
    expect(changes).toEqual([]);
  });
});
