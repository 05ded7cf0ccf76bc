import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError, ValidationError } from '../../core/errors';
import type { InboxEntry } from '../../core/model/inbox';
import type { SerialQueue } from '../serial-queue';
import { databaseUnavailable } from './connection-errors';
import { translateDbError } from './db-errors';
import { isUuid } from './ids';
import { ADD_TO_INBOX, addParams } from './repositories/inbox-repository';
import type { SqlStore, SqlStoreTx } from './sql-store';
import { createStoreTx } from './store-tx';

/** Marks the async context of an open store transaction (see `run`). */
interface OpenTransaction {
  open: boolean;
}

/**
 * The store over one TypeORM data source. Each call is one database transaction; an error
 * thrown by `work` rolls it back.
 */
export class TypeormStore implements SqlStore {
  private readonly openTransaction = new AsyncLocalStorage<OpenTransaction>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: SerialQueue,
    private readonly closeDatabase: () => Promise<void>,
  ) {}

  /** The system context: the connecting role owns the tables, so row-level security does not apply. */
  transaction<T>(work: (tx: SqlStoreTx) => Promise<T>): Promise<T> {
    return this.run(work, async () => {});
  }

  /** A2: the tenant context; PostgreSQL's row-level security hides every other workspace. */
  inWorkspace<T>(workspaceId: string, work: (tx: SqlStoreTx) => Promise<T>): Promise<T> {
    if (!isUuid(workspaceId)) {
      return Promise.reject(new ValidationError(`Not a workspace id: ${JSON.stringify(workspaceId)}.`));
    }
    return this.run(work, async (manager) => {
      // Both are local to the transaction: the pooled connection goes back clean.
      await manager.query('SET LOCAL ROLE summon_tenant');
      await manager.query(`SELECT set_config('summon.workspace_id', $1, true)`, [workspaceId]);
    });
  }

  /** T4: one autocommitted statement (no BEGIN/COMMIT round trips): the write an ack waits for. */
  addToInbox(entry: InboxEntry): Promise<boolean> {
    return this.queue
      .run(async () => {
        const result: unknown = await this.dataSource.query(ADD_TO_INBOX, addParams(entry));
        return Array.isArray(result) && result.length === 1;
      })
      .catch((error: unknown) => {
        throw databaseUnavailable(error, false) ?? translateDbError(error);
      });
  }

  close(): Promise<void> {
    return this.closeDatabase();
  }

  private run<T>(work: (tx: SqlStoreTx) => Promise<T>, enter: (manager: EntityManager) => Promise<void>) {
    // A transaction opened inside another would wait forever for PGlite's single session, and on
    // PostgreSQL would not see the outer one's writes: refuse it on both, loudly.
    if (this.openTransaction.getStore()?.open) {
      return Promise.reject(
        new AppError('Store transactions cannot be nested: use the tx you were given.', 'nested_transaction'),
      );
    }
    const marker: OpenTransaction = { open: true };
    // T2: once `work` has returned, TypeORM commits: a connection lost from then on may have
    // stored the transaction, so it is not one to repeat blindly.
    let committing = false;
    return this.queue
      .run(() =>
        this.openTransaction.run(marker, () =>
          this.dataSource.transaction(async (manager) => {
            await enter(manager);
            const result = await work(createStoreTx(manager));
            committing = true;
            return result;
          }),
        ),
      )
      .catch((error: unknown) => {
        throw databaseUnavailable(error, committing) ?? translateDbError(error);
      })
      .finally(() => {
        marker.open = false;
      });
  }
}
