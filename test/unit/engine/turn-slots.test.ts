import { TurnSlots } from '../../../src/core/engine/waits/turn-slots';

const owner = { workspaceId: 'w', spaceId: 's' };

describe('T1: TurnSlots', () => {
  it('a turn gives its slot back while it waits, so another turn runs, and takes one again after', async () => {
    const slots = new TurnSlots(1);
    const signal = new AbortController().signal;
    const lease = await slots.acquire(owner, signal);
    if (lease === null) throw new Error('no slot');
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const order: string[] = [];
    const first = slots.run('run-1', owner, lease, signal, async () => {
      await slots.suspendWhile('run-1', () => answered);
      order.push('run-1 resumed');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(slots.stats()).toEqual({ capacity: 1, active: 0, waiting: 0, suspended: 1 });
    // The only slot is free: a second turn gets it while the first waits.
    const second = await slots.acquire(owner, signal);
    order.push('run-2 started');
    answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(slots.stats()).toMatchObject({ active: 1, waiting: 1 }); // run-1 waits for the slot again
    second?.release();
    const ended = await first;
    expect(order).toEqual(['run-2 started', 'run-1 resumed']);
    expect(ended.lease).not.toBeNull();
    ended.lease?.release();
    expect(slots.stats()).toEqual({ capacity: 1, active: 0, waiting: 0, suspended: 0 });
  });

  it('a wait for a run this process does not hold just waits', async () => {
    const slots = new TurnSlots(1);
    expect(await slots.suspendWhile('elsewhere', async () => 'done')).toBe('done');
    expect(slots.stats().active).toBe(0);
  });

  it('a turn that ends while a wait of its run goes on (a held push) takes no slot again', async () => {
    const slots = new TurnSlots(1);
    const signal = new AbortController().signal;
    const lease = await slots.acquire(owner, signal);
    if (lease === null) throw new Error('no slot');
    let finishPush = () => {};
    const push = new Promise<void>((resolve) => {
      finishPush = resolve;
    });
    let gatewayWait: Promise<void> = Promise.resolve();
    const ended = await slots.run('run-1', owner, lease, signal, async () => {
      gatewayWait = slots.suspendWhile('run-1', () => push);
      await Promise.resolve();
    });
    expect(ended.lease).toBeNull();
    finishPush();
    await gatewayWait;
    expect(slots.stats()).toEqual({ capacity: 1, active: 0, waiting: 0, suspended: 0 });
  });

  it('P15: a watcher is told when the run starts waiting (at its first of overlapping waits) and when it works again, holding a slot', async () => {
    const slots = new TurnSlots(1);
    const signal = new AbortController().signal;
    const lease = await slots.acquire(owner, signal);
    if (lease === null) throw new Error('no slot');
    const seen: string[] = [];
    const unwatch = slots.watchWaits('run-1', (waiting) =>
      seen.push(waiting ? 'waiting' : `working (${slots.stats().active} active)`),
    );
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const ended = slots.run('run-1', owner, lease, signal, async () => {
      await Promise.all([
        slots.suspendWhile('run-1', () => answered),
        slots.suspendWhile('run-1', () => answered),
      ]);
      await slots.suspendWhile('run-1', async () => {});
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['waiting']);
    answer();
    (await ended).lease?.release();
    expect(seen).toEqual(['waiting', 'working (1 active)', 'waiting', 'working (1 active)']);
    unwatch();
    await slots.suspendWhile('run-1', async () => {});
    expect(seen).toHaveLength(4);
  });
});
