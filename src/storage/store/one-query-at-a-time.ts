import type { DataSource, QueryRunner } from 'typeorm';
import { RunnerState } from '../runner-state';

/**
 * T3: a connection runs one query at a time. A transaction's repositories may be called together
 * (`Promise.all` inside one `store.transaction`), and so does TypeORM's own schema reader; but
 * node-postgres refuses a query sent while another runs on the same client (deprecated, removed
 * in pg 9). Each send on a query runner starts once every send issued on it before has settled,
 * in the order issued, as the server would run them anyway.
 */
const lastSend = new RunnerState<Promise<unknown>>();

const settled = (): undefined => undefined;

/** Runs `send` on `runner` after the runner's earlier sends have settled. */
export function oneQueryAtATime<T>(runner: object, send: () => Promise<T>): Promise<T> {
  const previous = lastSend.get(runner);
  const result = previous === undefined ? send() : previous.then(send);
  lastSend.set(runner, result.then(settled, settled));
  return result;
}

/** Every query runner `dataSource` makes sends its queries (`runner.query`) one at a time. */
export function oneQueryAtATimeOnEveryRunner(dataSource: DataSource): void {
  const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode) => {
    const runner = createQueryRunner(mode);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = ((...args: unknown[]) =>
      oneQueryAtATime(runner, () => query(...args))) as QueryRunner['query'];
    return runner;
  };
}
