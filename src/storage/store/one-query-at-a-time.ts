/**
 * T3: a transaction's connection runs one query at a time. Its repositories may be called
 * together (`Promise.all` inside one `store.transaction`), and node-postgres refuses a query
 * sent while another is running on the same client (deprecated, removed in pg 9): each send on a
 * query runner starts once every send issued on it before has settled, in the order issued, as
 * the server would run them anyway.
 */
const lastSend = new WeakMap<object, Promise<unknown>>();

const settled = (): undefined => undefined;

/** Runs `send` on `runner` after the runner's earlier sends have settled. */
export function oneQueryAtATime<T>(runner: object, send: () => Promise<T>): Promise<T> {
  const previous = lastSend.get(runner);
  const result = previous === undefined ? send() : previous.then(send);
  lastSend.set(runner, result.then(settled, settled));
  return result;
}
