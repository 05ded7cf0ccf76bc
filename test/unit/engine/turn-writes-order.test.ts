import { laneKey, TurnWrites } from '../../../src/core/engine/turn/turn-writes';
import { ServiceUnavailableError } from '../../../src/core/errors';
import type { Store, StoreTx } from '../../../src/core/ports/store';

/**
 * A store whose transactions the test ends by hand; each hands its work a stand-in tx. A part
 * `refuse`s as the database refuses a statement of the transaction's one message: the
 * transaction then fails with that error (its COMMIT skipped), whatever its work returned.
 */
function heldStore() {
  const ends: (() => void)[] = [];
  let transactions = 0;
  const run = <T>(work: (tx: StoreTx) => Promise<T>) => {
    transactions += 1;
    const tx = { commitWithNextMessage: () => {}, refused: null as unknown };
    return new Promise<T>((resolve, reject) => {
      work(tx as unknown as StoreTx).then(
        (result) => ends.push(() => (tx.refused === null ? resolve(result) : reject(tx.refused))),
        reject,
      );
    });
  };
  const store: Store = {
    transaction: run,
    inWorkspace: (_workspaceId, work) => run(work),
    addToInbox: async () => true,
    warm: async () => {},
    close: async () => {},
  };
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return {
    store,
    /** The database refuses a statement of `tx`'s one message, with `error`. */
    refuse: (tx: StoreTx, error: unknown) => {
      (tx as unknown as { refused: unknown }).refused = error;
      return error;
    },
    transactions: () => transactions,
    endNext: async () => {
      await settle();
      ends.shift()?.();
      await settle();
    },
  };
}

const WORKSPACE = '6f1c2d3e-0000-4000-8000-000000000001';

describe('TurnWrites (T3: turns’ transactions shared while the slots are busy)', () => {
  it('T3: a batch starts its turns in the order of their lanes, whatever the order they came in', async () => {
    const held = heldStore();
    const writes = new TurnWrites(held.store);
    const started: string[] = [];
    const part = (lane: string) =>
      writes.together(
        'finish',
        WORKSPACE,
        async () => {
          started.push(lane);
          return lane;
        },
        lane,
      );
    // Two go at once, alone; the three that come meanwhile go together, sorted by lane.
    const results = ['m', 'n', 'z:2', 'a:9', 'k:1'].map(part);
    await held.endNext();
    await held.endNext();
    await held.endNext();
    await expect(Promise.all(results)).resolves.toEqual(['m', 'n', 'z:2', 'a:9', 'k:1']);
    expect(started).toEqual(['m', 'n', 'a:9', 'k:1', 'z:2']);
    expect(held.transactions()).toBe(3);
  });

  it('a failed batch is run again turn by turn: only the failing turn fails', async () => {
    const held = heldStore();
    const writes = new TurnWrites(held.store);
    const runs: string[] = [];
    const part = (name: string) =>
      writes.together('card', WORKSPACE, async (tx) => {
        runs.push(name);
        if (name === 'bad') throw held.refuse(tx, new Error('refused'));
        return name;
      });
    const results = ['a', 'b', 'c', 'bad', 'd'].map((name) => part(name).catch((e: Error) => e.message));
    for (let i = 0; i < 6; i++) await held.endNext();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'refused', 'd']);
    // c, bad, d together (refused as a whole), then each alone.
    expect(runs).toEqual(['a', 'b', 'c', 'bad', 'd', 'c', 'bad', 'd']);
  });

  it('T3: a turn that fails in memory after its batch committed fails alone; the batch is not run again', async () => {
    const held = heldStore();
    const writes = new TurnWrites(held.store);
    const runs: string[] = [];
    const part = (name: string) =>
      writes.together('card', WORKSPACE, async () => {
        runs.push(name);
        if (name === 'bad') throw new Error('not in the rows');
        return name;
      });
    const results = ['a', 'b', 'c', 'bad', 'd'].map((name) => part(name).catch((e: Error) => e.message));
    for (let i = 0; i < 3; i++) await held.endNext();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'not in the rows', 'd']);
    // The others' writes are stored: nobody's part runs twice.
    expect(runs).toEqual(['a', 'b', 'c', 'bad', 'd']);
    expect(held.transactions()).toBe(3);
  });

  it('T2: a batch that could not reach the database is not run again: each of its turns gets the error', async () => {
    const held = heldStore();
    const writes = new TurnWrites(held.store);
    let runs = 0;
    const away = new ServiceUnavailableError('database', 'gone', true);
    const part = (name: string) =>
      writes.together('reply', WORKSPACE, async (tx) => {
        runs += 1;
        if (name === 'c') throw held.refuse(tx, away);
        return name;
      });
    const results = ['a', 'b', 'c', 'd'].map((name) => part(name).catch((e: unknown) => e));
    for (let i = 0; i < 4; i++) await held.endNext();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', away, away]);
    expect(runs).toBe(4);
  });

  it('the lane key is the agent and the conversation', () => {
    expect(laneKey({ agentId: 'a', conversationId: 'c' })).toBe('a:c');
  });
});
