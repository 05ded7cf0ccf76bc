import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import {
  AppError,
  FailedAfterCommitError,
  ServiceUnavailableError,
  ValidationError,
} from '../../core/errors';
import type { InboxEntry } from '../../core/model/inbox';
import { GroupCommit } from '../../core/waits/group-commit';
import { forgetRunner } from '../runner-state';
import type { SerialQueue } from '../serial-queue';
import { databaseUnavailable } from './connection-errors';
import { translateDbError } from './db-errors';
import { isUuid } from './ids';
import { owingStatements } from './pending-statements';
import { enterContext, type Statement } from './prepared-statement';
import { addToInboxStatement } from './repositories/inbox-repository';
import type { SqlStore, SqlStoreTx } from './sql-store';
import { textLiteral } from './statements-together';
import { createStoreTx } from './store-tx';
import { TENANT_SETTINGS } from './tenant-settings';

/** Inbox events stored by one statement at most. */
const INBOX_BATCH = 500;

/** T4: where the inbox writes go when not through the store's own connection. */
/** A statement with parameters that a connection plans once, under its name, and runs again. */
export interface NamedStatement {
  name: string;
  sql: string;
  params: readonly unknown[];
}

export interface InboxConnection {
  /** Writes at once (each on its own connection). */
  slots: number;
  /** Runs one autocommitted statement, prepared on its connection; resolves with its rows. */
  query(statement: NamedStatement): Promise<unknown[]>;
}

/** Marks the async context of an open store transaction (see `run`). */
interface OpenTransaction {
  open: boolean;
}

/**
 * The store over one TypeORM data source. Each call is one database transaction; an error
 * thrown by `work` rolls it back.
 */
export class TypeormStore implements SqlStore {
  /** Where a transaction is open, when nesting is checked (`checkNesting`); null when not. */
  private readonly openTransaction: AsyncLocalStorage<OpenTransaction> | null;
  private readonly inbox: GroupCommit<InboxEntry, boolean>;
  private readonly warmUp: () => Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: SerialQueue,
    private readonly closeDatabase: () => Promise<void>,
    {
      inbox,
      checkNesting,
      warm,
    }: {
      inbox?: InboxConnection | undefined;
      checkNesting: boolean;
      warm?: (() => Promise<void>) | undefined;
    },
  ) {
    this.warmUp = warm ?? (() => Promise.resolve());
    this.openTransaction = checkNesting ? new AsyncLocalStorage<OpenTransaction>() : null;
    // Without connections of its own (PGlite's one session) the inbox write goes ahead of the
    // transactions waiting for it. Unnamed there: the session is the transactions' too, whose
    // `DEALLOCATE ALL` (`prepared-statement.ts`) would drop a statement pg believes prepared.
    const query =
      inbox?.query ??
      ((statement: NamedStatement) =>
        this.queue.runFirst(async () => {
          const rows: unknown = await this.dataSource.query(statement.sql, [...statement.params]);
          if (!Array.isArray(rows)) throw new Error('The inbox insert returned no rows.');
          return rows;
        }));
    this.inbox = new GroupCommit({
      write: (entries) => this.writeInbox(query, entries),
      slots: inbox?.slots ?? 1,
      maxBatch: INBOX_BATCH,
    });
  }

  /** The system context: the connecting role owns the tables, so row-level security does not apply. */
  transaction<T>(work: (tx: SqlStoreTx) => Promise<T>): Promise<T> {
    return this.run(work, null);
  }

  /** A2: the tenant context; PostgreSQL's row-level security hides every other workspace. */
  inWorkspace<T>(workspaceId: string, work: (tx: SqlStoreTx) => Promise<T>): Promise<T> {
    if (!isUuid(workspaceId)) {
      return Promise.reject(new ValidationError(`Not a workspace id: ${JSON.stringify(workspaceId)}.`));
    }
    return this.run(work, TENANT_SETTINGS.with(textLiteral(workspaceId)));
  }

  /**
   * T4: the write an ack waits for, resolved once the event's row has committed. Events arriving
   * while earlier ones are written are stored together: one autocommitted statement (no
   * BEGIN/COMMIT round trips) and one commit for all of them (a group commit).
   */
  addToInbox(entry: InboxEntry): Promise<boolean> {
    return this.inbox.add(entry);
  }

  private async writeInbox(
    query: InboxConnection['query'],
    entries: readonly InboxEntry[],
  ): Promise<boolean[]> {
    const statement = addToInboxStatement(entries);
    try {
      const rows = await query(statement);
      return statement.storedFrom(rows as { platform: string; event_id: string }[]);
    } catch (error) {
      throw databaseUnavailable(error, false) ?? translateDbError(error);
    }
  }

  /** T3: the connections opened and their hot statements prepared (PostgreSQL; PGlite has one session). */
  warm(): Promise<void> {
    return this.warmUp();
  }

  close(): Promise<void> {
    return this.closeDatabase();
  }

  /** Runs `work` marked as inside a transaction, when nesting is checked. */
  private inMarked<T>(marker: OpenTransaction, work: () => Promise<T>): Promise<T> {
    return this.openTransaction === null ? work() : this.openTransaction.run(marker, work);
  }

  /**
   * One transaction on a connection of its own. T3: its START TRANSACTION and `enter` (the
   * tenant's settings) are owed until its first statement and go in the same round trip; a
   * transaction that sends nothing sends no START and no COMMIT (`pending-statements.ts`). As
   * TypeORM's own `transaction`, but for that.
   */
  private run<T>(work: (tx: SqlStoreTx) => Promise<T>, enter: Statement | null) {
    // A transaction opened inside another would wait forever for PGlite's single session, and on
    // PostgreSQL would not see the outer one's writes: refuse it on both, loudly.
    if (this.openTransaction?.getStore()?.open) {
      return Promise.reject(
        new AppError('Store transactions cannot be nested: use the tx you were given.', 'nested_transaction'),
      );
    }
    const marker: OpenTransaction = { open: true };
    // T2: once `work` has returned, the COMMIT is sent: a connection lost from then on may have
    // stored the transaction, so it is not one to repeat blindly.
    let committing = false;
    // T2: its connection ended before the COMMIT was sent (`connectionLost`): nothing was stored.
    let lost = false;
    return this.queue
      .run(() =>
        this.inMarked(marker, async () => {
          const runner = this.dataSource.createQueryRunner();
          const owed = owingStatements(runner, enter);
          enterContext(runner, enter === null ? 'system' : 'tenant');
          try {
            await runner.startTransaction();
            const result = await work(createStoreTx(runner.manager));
            // T3: its COMMIT went with its last message (`commitWithNextMessage`): whether it
            // may have landed is that message's (below); TypeORM's COMMIT is its answer.
            if (!owed.lastMessage().sent) {
              // T2: TypeORM released the runner when its connection ended: no COMMIT can go out.
              if (runner.isReleased) throw connectionLost(null);
              committing = true;
            }
            await runner.commitTransaction();
            return result;
          } catch (error) {
            // T2, T3: a COMMIT sent with the work's last message (`commitWithNextMessage`).
            committing ||= owed.lastMessage().mayHaveCommitted;
            lost = !committing && runner.isReleased;
            // The error that ended it is the one reported, whatever the rollback says.
            await runner.rollbackTransaction().catch(() => {});
            if (owed.lastMessage().committed) throw failedAfterCommit(error);
            throw error;
          } finally {
            // T3: its state beside the runner goes with it (`runner-state.ts`).
            await runner.release().finally(() => forgetRunner(runner));
          }
        }),
      )
      .catch((error: unknown) => {
        if (error instanceof FailedAfterCommitError) throw error;
        const unavailable = databaseUnavailable(error, committing);
        if (unavailable !== null) throw unavailable;
        if (lost && !(error instanceof ServiceUnavailableError)) throw connectionLost(error);
        throw translateDbError(error);
      })
      .finally(() => {
        marker.open = false;
      });
  }
}

/** T3: the work failed once its transaction had committed with its last message: stored, not to repeat. */
const failedAfterCommit = (cause: unknown): FailedAfterCommitError =>
  new FailedAfterCommitError(
    `The transaction was committed with its last message, then failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    { cause },
  );

/**
 * T2: TypeORM releases a transaction's query runner as soon as its connection reports an error
 * (the server ended the session while the transaction waited between two of its messages: a
 * shutdown, a restart). Whatever the next statement then failed with — TypeORM's "Query runner
 * already released", the driver's "not queryable", or what `work` made of either — neither it
 * nor the COMMIT was sent: nothing of the transaction was stored, and it is safe to run again.
 */
const connectionLost = (cause: unknown): ServiceUnavailableError =>
  new ServiceUnavailableError(
    'database',
    'The database could not be reached: the connection ended before the transaction was committed',
    false,
    cause === null ? {} : { cause },
  );
