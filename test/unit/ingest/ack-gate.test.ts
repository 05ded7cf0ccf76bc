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
