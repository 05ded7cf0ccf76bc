import { AckGate } from '../../../src/core/ingest/ack-gate';

/** A write the test finishes when it wants. */
const pendingWrite = () => {
  let finish: (stored: boolean) => void = () => {};
  const written = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  return { written, finish };
};

describe('T4: acks first', () => {
  it('routing waits while an ack’s write is under way, and goes on once none is', async () => {
    const gate = new AckGate(60_000);
    const first = pendingWrite();
    const second = pendingWrite();
    const acks = [gate.write(() => first.written), gate.write(() => second.written)];
    expect(gate.busy).toBe(true);
    let routed = false;
    const routing = gate.quiet().then(() => {
      routed = true;
    });
    first.finish(true);
    await acks[0];
    await Promise.resolve();
    expect(routed).toBe(false);
    second.finish(false);
    expect(await Promise.all(acks)).toEqual([true, false]);
    await routing;
    expect(routed).toBe(true);
    expect(gate.busy).toBe(false);
  });

  it('a failed write is counted out too, and its error reaches the ack', async () => {
    const gate = new AckGate(60_000);
    await expect(gate.write(() => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(gate.busy).toBe(false);
    await gate.quiet();
  });

  it('never stops routing: with writes that never end, it goes on after its longest wait', async () => {
    const gate = new AckGate(20);
    const stuck = pendingWrite();
    void gate.write(() => stuck.written);
    await gate.quiet();
    expect(gate.busy).toBe(true);
    stuck.finish(true);
  });

  it('with no wait configured, routing goes at once', async () => {
    const gate = new AckGate(0);
    const stuck = pendingWrite();
    void gate.write(() => stuck.written);
    await gate.quiet();
    stuck.finish(true);
  });
});

/** A loop load the test sets. */
const loopAt = (share: number) => {
  const load = { share, busy: () => load.share };
  return load;
};

describe('T4: acks first while the loop is busy', () => {
  it('while acks keep coming and the loop is busy, routing waits until the loop has room', async () => {
    const load = loopAt(0.95);
    const gate = new AckGate(60_000, load);
    // Acks keep coming, each written at once: none is under way when routing looks.
    const acks = setInterval(() => void gate.write(async () => true), 1);
    await gate.write(async () => true);
    let routed = false;
    const routing = gate.quiet().then(() => {
      routed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(routed).toBe(false);
    load.share = 0.3;
    await routing;
    clearInterval(acks);
    expect(routed).toBe(true);
  });

  it('an ack under way is let finish first, whatever the loop', async () => {
    const gate = new AckGate(60_000, loopAt(0.3));
    const ack = pendingWrite();
    const acked = gate.write(() => ack.written);
    let routed = false;
    const routing = gate.quiet().then(() => {
      routed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(routed).toBe(false);
    ack.finish(true);
    await acked;
    await routing;
    expect(routed).toBe(true);
  });

  it('a busy loop with no ack coming holds routing back for nothing', async () => {
    const gate = new AckGate(60_000, loopAt(1));
    await gate.quiet();
  });

  it('once acks stop coming, routing goes on even while the loop stays busy', async () => {
    const gate = new AckGate(60_000, loopAt(1));
    await gate.write(async () => true);
    // One look finds the ack written before it; the next finds none since, and goes.
    await gate.quiet();
  });

  it('never stops routing: with acks and a busy loop that never end, it goes on after its longest wait', async () => {
    const gate = new AckGate(30, loopAt(1));
    const stuck = pendingWrite();
    void gate.write(() => stuck.written);
    await gate.quiet();
    expect(gate.busy).toBe(true);
    stuck.finish(true);
  });
});

describe('T4: acks first, bounded by the clock', () => {
  it('waits at most its longest wait of the clock’s time, however late each look’s timer fires', async () => {
    // A busy loop fires each 5 ms look late: here the clock moves 12 ms between two looks.
    let now = 0;
    const clock = {
      now: () => {
        now += 6;
        return new Date(now);
      },
    };
    let looks = 0;
    const load = {
      busy: () => {
        looks += 1;
        return 1;
      },
    };
    const gate = new AckGate(30, load, clock);
    const acks = setInterval(() => void gate.write(async () => true), 1);
    await gate.write(async () => true);
    await gate.quiet();
    clearInterval(acks);
    // 30 ms of this clock is three looks of 12 ms, where counting 5 ms looks would take six.
    expect(looks).toBeLessThanOrEqual(3);
  });
});
