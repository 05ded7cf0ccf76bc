import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';

describe('FairSemaphore (issue 12, T3)', () => {
  it('grants up to the limit, then first come first served; a release passes the slot on', async () => {
    const slots = new FairSemaphore(2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    const order: string[] = [];
    const c = slots.acquire().then((release) => {
      order.push('c');
      return release;
    });
    const d = slots.acquire().then((release) => {
      order.push('d');
      return release;
    });
    expect(slots.queued).toBe(2);
    a();
    a(); // a second release of the same slot changes nothing
    (await c)();
    b();
    (await d)();
    expect(order).toEqual(['c', 'd']);
    expect(slots.active).toBe(0);
  });

  it('a waiter whose signal aborts leaves the queue and is rejected; the others keep their turn', async () => {
    const slots = new FairSemaphore(1);
    const held = await slots.acquire();
    const abort = new AbortController();
    const gone = slots.acquire(abort.signal);
    const next = slots.acquire();
    abort.abort(new Error('stopped'));
    await expect(gone).rejects.toThrow('stopped');
    held();
    (await next)();
    expect(slots.active).toBe(0);
    await expect(slots.acquire(abort.signal)).rejects.toThrow('stopped');
  });
});
