import { GroupCommit } from '../../../src/core/waits/group-commit';

/** A write whose batches the test releases by hand, recording what each batch held. */
function controlledWrite() {
  const batches: string[][] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let refuse: (item: string) => boolean = () => false;
  const write = (items: readonly string[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push([...items]);
      pending.push({
        resolve: () => {
          const bad = items.find((item) => refuse(item));
          if (bad !== undefined) reject(new Error(`refused ${bad}`));
          else resolve(items.map((item) => `stored ${item}`));
        },
        reject,
      });
    });
  const releaseNext = async () => {
    pending.shift()?.resolve();
    // Let the group commit hand its results out and start its next batch.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { write, batches, releaseNext, refuseWhen: (f: (item: string) => boolean) => (refuse = f) };
}

describe('GroupCommit (T4: the inbox write an ack waits for)', () => {
  it('T4: an item arriving while no write is running is written at once, alone', async () => {
    const w = controlledWrite();
    const group = new GroupCommit({ write: w.write, slots: 1, maxBatch: 10 });
    const a = group.add('a');
    expect(w.batches).toEqual([['a']]);
    await w.releaseNext();
    await expect(a).resolves.toBe('stored a');
  });

  it('T4: items arriving while every slot is busy go together in the next batch, in order', async () => {
    const w = controlledWrite();
    const group = new GroupCommit({ write: w.write, slots: 1, maxBatch: 10 });
    const results = ['a', 'b', 'c', 'd'].map((item) => group.add(item));
    expect(w.batches).toEqual([['a']]);
    await w.releaseNext();
    expect(w.batches).toEqual([['a'], ['b', 'c', 'd']]);
    await w.releaseNext();
    await expect(Promise.all(results)).resolves.toEqual(['stored a', 'stored b', 'stored c', 'stored d']);
  });

  it('T4: no item resolves before the batch holding it has been written', async () => {
    const w = controlledWrite();
    const group = new GroupCommit({ write: w.write, slots: 1, maxBatch: 10 });
    let settled = false;
    void group.add('a');
    const b = group.add('b').then((r) => {
      settled = true;
      return r;
    });
    await w.releaseNext();
    expect(settled).toBe(false);
    await w.releaseNext();
    await expect(b).resolves.toBe('stored b');
  });

  it('T4: two slots write two batches at once; a batch holds at most maxBatch items', async () => {
    const w = controlledWrite();
    const group = new GroupCommit({ write: w.write, slots: 2, maxBatch: 2 });
    const results = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => group.add(item));
    expect(w.batches).toEqual([['a'], ['b']]);
    await w.releaseNext();
    expect(w.batches).toEqual([['a'], ['b'], ['c', 'd']]);
    await w.releaseNext();
    expect(w.batches).toEqual([['a'], ['b'], ['c', 'd'], ['e', 'f']]);
    await w.releaseNext();
    await w.releaseNext();
    await expect(Promise.all(results)).resolves.toHaveLength(6);
  });

  it('T4: a batch the database refuses is written again item by item: only the bad item fails', async () => {
    const w = controlledWrite();
    w.refuseWhen((item) => item === 'bad');
    const group = new GroupCommit({ write: w.write, slots: 1, maxBatch: 10 });
    const first = group.add('a');
    const rest = ['b', 'bad', 'c'].map((item) => group.add(item).catch((error: Error) => error.message));
    await w.releaseNext(); // a
    await w.releaseNext(); // b, bad, c: refused as a whole
    expect(w.batches.at(-1)).toEqual(['b']);
    await w.releaseNext(); // b
    await w.releaseNext(); // bad
    await w.releaseNext(); // c
    expect(w.batches).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
    await expect(first).resolves.toBe('stored a');
    await expect(Promise.all(rest)).resolves.toEqual(['stored b', 'refused bad', 'stored c']);
  });

  it('T2: a batch failing in a way `splits` refuses is not written again: every item gets its error', async () => {
    const w = controlledWrite();
    w.refuseWhen((item) => item === 'bad');
    const group = new GroupCommit({ write: w.write, slots: 1, maxBatch: 10, splits: () => false });
    const first = group.add('a');
    const rest = ['b', 'bad', 'c'].map((item) => group.add(item).catch((error: Error) => error.message));
    await w.releaseNext(); // a
    await w.releaseNext(); // b, bad, c: refused as a whole, and not split
    expect(w.batches).toEqual([['a'], ['b', 'bad', 'c']]);
    await expect(first).resolves.toBe('stored a');
    await expect(Promise.all(rest)).resolves.toEqual(['refused bad', 'refused bad', 'refused bad']);
  });

  it('a write answering with the wrong number of results fails its items rather than misattributing', async () => {
    const group = new GroupCommit<string, string>({ write: async () => [], slots: 1, maxBatch: 10 });
    await expect(group.add('a')).rejects.toThrow('wrong number of results');
  });
});
