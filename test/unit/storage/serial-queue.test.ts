import { createSerialQueue } from '../../../src/storage/serial-queue';

const tick = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the serial queue of the embedded database', () => {
  it('runs one task at a time, in the order given, whatever each one’s outcome', async () => {
    const queue = createSerialQueue();
    const order: string[] = [];
    let running = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running += 1;
        expect(running).toBe(1);
        order.push(name);
        await tick();
        running -= 1;
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run(task('a')),
      queue.run(task('b', true)),
      queue.run(() => {
        throw new Error('sync');
      }),
      queue.run(task('c')),
    ]);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
  });

  it('T4: runFirst goes ahead of the tasks waiting, never ahead of the one running', async () => {
    const queue = createSerialQueue();
    const order: string[] = [];
    let release = () => {};
    const first = queue.run(
      () =>
        new Promise<void>((resolve) => {
          order.push('running');
          release = resolve;
        }),
    );
    await tick();
    const waiting = [
      queue.run(async () => order.push('routing 1')),
      queue.run(async () => order.push('routing 2')),
    ];
    const ack = queue.runFirst(async () => order.push('inbox write'));
    await tick();
    expect(order).toEqual(['running']);
    release();
    await Promise.all([first, ack, ...waiting]);
    expect(order).toEqual(['running', 'inbox write', 'routing 1', 'routing 2']);
  });
});
