import type { Store, StoreTx } from '../../core/ports/store';

/**
 * The store as `src/storage` hands it out: the core's `Store`, plus plain SQL inside a
 * transaction for storage-level tooling and tests (tables the port does not cover yet). The
 * core sees only `Store`.
 */
export interface SqlStoreTx extends StoreTx {
  /** Runs one parameterised statement ($1, $2…) in this transaction; returns its rows. */
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface SqlStore extends Store {
  transaction<T>(work: (tx: SqlStoreTx) => Promise<T>): Promise<T>;
  inWorkspace<T>(workspaceId: string, work: (tx: SqlStoreTx) => Promise<T>): Promise<T>;
}
