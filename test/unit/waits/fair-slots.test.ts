import { FairSlots, type SlotLease } from '../../../src/core/waits/fair-slots';

const owner = (workspaceId: string, spaceId = 's') => ({ workspaceId, spaceId });

describe('T3: FairSlots', () => {
  it('grants up to the capacity at once and queues the rest', async () => {
    const slots = new FairSlots(2);
    const a = await slots.acquire(owner('w1'));
    const b = await slots.acquire(owner('w1'));
    let third: SlotLease | null = null;
    const pending = slots.acquire(owner('w1')).then((lease) => {
      third = lease;
    });
    await Promise.resolve();
    expect(third).toBeNull();
    expect(slots.stats()).toEqual({ capacity: 2, active: 2, waiting: 1 });
    a?.release();
    a?.release(); // idempotent: one slot freed, not two
    await pending;
    expect(third).not.toBeNull();
    expect(slots.stats()).toEqual({ capacity: 2, active: 2, waiting: 0 });
    b?.release();
    expect(slots.stats().active).toBe(1);
  });

  it('serves waiters round-robin across workspaces, so a busy one cannot starve another', async () => {
    const slots = new FairSlots(1);
    const first = await slots.acquire(owner('busy'));
    const order: string[] = [];
    const wait = (workspace: string, label: string) =>
      slots.acquire(owner(workspace)).then((lease) => {
        order.push(label);
        lease?.release();
      });
    // The busy workspace queues five turns before the quiet one queues its one.
    const all = [1, 2, 3, 4, 5].map((n) => wait('busy', `busy${n}`));
    all.push(wait('quiet', 'quiet1'));
    first?.release();
    await Promise.all(all);
    expect(order).toEqual(['busy1', 'quiet1', 'busy2', 'busy3', 'busy4', 'busy5']);
  });

  it('within a workspace, serves its spaces round-robin', async () => {
    const slots = new FairSlots(1);
    const first = await slots.acquire(owner('w', 'a'));
    const order: string[] = [];
    const wait = (space: string, label: string) =>
      slots.acquire(owner('w', space)).then((lease) => {
        order.push(label);
        lease?.release();
      });
    const all = [wait('a', 'a1'), wait('a', 'a2'), wait('a', 'a3'), wait('b', 'b1'), wait('b', 'b2')];
    first?.release();
    await Promise.all(all);
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('an aborted waiter leaves the queue with null and takes no slot', async () => {
    const slots = new FairSlots(1);
    const held = await slots.acquire(owner('w'));
    const controller = new AbortController();
    const waiting = slots.acquire(owner('w'), controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
    expect(slots.stats()).toEqual({ capacity: 1, active: 1, waiting: 0 });
    held?.release();
    expect(slots.stats().active).toBe(0);
  });

  it('a raised capacity admits waiters at once; a capacity below 1 is refused', async () => {
    const slots = new FairSlots(1);
    await slots.acquire(owner('w'));
    const waiting = slots.acquire(owner('w'));
    slots.setCapacity(2);
    expect(await waiting).not.toBeNull();
    expect(() => slots.setCapacity(0)).toThrow(/at least 1/);
    expect(() => new FairSlots(1.5)).toThrow(/whole number/);
  });

  it('T3: tryAcquire, a slot at once when one is free and nobody waits; never ahead of a waiter, never past the bound', async () => {
    const slots = new FairSlots(2);
    const first = slots.tryAcquire();
    expect(first).not.toBeNull();
    const second = await slots.acquire(owner('w'));
    // Full: nothing at once.
    expect(slots.tryAcquire()).toBeNull();
    expect(slots.stats()).toEqual({ capacity: 2, active: 2, waiting: 0 });
    const waiting = slots.acquire(owner('other'));
    first?.release();
    // The freed slot went to the waiter, not to the one asking at once.
    expect(await waiting).not.toBeNull();
    expect(slots.tryAcquire()).toBeNull();
    second?.release();
    // Free and nobody waiting: taken at once, and counted.
    const third = slots.tryAcquire();
    expect(third).not.toBeNull();
    expect(slots.stats()).toEqual({ capacity: 2, active: 2, waiting: 0 });
    third?.release();
    expect(slots.stats().active).toBe(1);
  });
});
