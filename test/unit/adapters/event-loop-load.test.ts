import { EventLoopLoad } from '../../../src/adapters/process/event-loop-load';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the loop working, without a pause, for `ms`. */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // working
  }
};

/** T4: the share of the last moments the event loop spent working (acks first). */
describe('T4: the event loop’s load', () => {
  it('reads near 1 after the loop worked without a pause, and near 0 after it only waited', async () => {
    const load = new EventLoopLoad();
    await sleep(120);
    load.busy();
    spin(250);
    expect(load.busy()).toBeGreaterThan(0.7);
    // A longer wait than the window, so a scheduler's pause on a busy machine weighs little.
    await sleep(500);
    expect(load.busy()).toBeLessThan(0.3);
  });

  it('is always a share between 0 and 1', () => {
    const load = new EventLoopLoad();
    for (let i = 0; i < 5; i++) {
      const share = load.busy();
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
  });
});
