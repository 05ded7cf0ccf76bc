import type { EntityManager, QueryRunner } from 'typeorm';
import { RunnerState } from '../runner-state';
import { afterLastMessage, type LastMessage, type OwedTransaction } from './last-message';
import type { Statement } from './prepared-statement';
import { sendTogether } from './simple-query-message';
import { forgetOnWrite } from './transaction-read-memo';

const START = 'START TRANSACTION';

/** TypeORM's `QueryRunner.query`, as one signature. */
type SendQuery = (sql: string, parameters?: unknown[], structured?: boolean) => Promise<unknown>;
type Rows = Record<string, unknown>[];

/** Statements sent together whose rows somebody awaits: where they are in the message. */
interface Reader {
  from: number;
  count: number;
  resolve(rows: Rows[]): void;
  reject(error: unknown): void;
}

/**
 * T3: the statements a transaction owes the database and has not sent yet —
 * its START TRANSACTION with the tenant's settings, writes whose answer nobody reads (`defer`),
 * and reads issued in the same tick (`read`: calls made together, as with `Promise.all`, go as
 * one message). They go in front of the transaction's next message, in the same simple-query
 * message when that one is sent together, else as one message of their own; what is still owed
 * at the end goes with the COMMIT. A transaction that sent nothing sends neither its START
 * TRANSACTION nor its COMMIT.
 *
 * Order holds: every statement reaches the server before any statement issued after it, in
 * the transaction it was issued in. An error in one owed statement fails the message it went
 * with and every read in it (the transaction is then rolled back, as for any failed statement).
 */
class PendingStatements {
  private owed: Statement[] = [];
  private readers: Reader[] = [];
  /** Whether the START TRANSACTION has reached the server. */
  private started = false;
  /** Owed statements besides the START TRANSACTION and its settings (writes and reads). */
  private besidesStart = 0;
  private flushScheduled = false;
  /** T3: the COMMIT goes with the next message (`commitWithNextMessage`). */
  private commitAsked = false;
  /** The message that carried the COMMIT, once sent: the transaction is over when it resolves. */
  private last: Promise<void> | null = null;
  /** T2: that message left with its COMMIT (the connection was still open): it may have landed. */
  private commitSent = false;
  /** That message's answer came back: the transaction is stored. */
  private committed = false;
  /** Queries of the runner's own on their way: no message carries the COMMIT meanwhile. */
  private plain = 0;
  /** A statement issued after the committing message was refused: the work fails, even if it caught that. */
  private refused = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly send: SendQuery,
  ) {}

  begin(enter: Statement | null): void {
    this.owed = enter === null ? [START] : [START, enter];
    this.readers = [];
    this.started = false;
    this.besidesStart = 0;
    this.commitAsked = false;
    this.last = null;
    this.commitSent = false;
    this.committed = false;
    this.refused = false;
  }

  hasStarted = (): boolean => this.started;

  lastMessage(): LastMessage {
    return { sent: this.last !== null, mayHaveCommitted: this.commitSent, committed: this.committed };
  }

  /** T3: the next message carries the COMMIT; every statement after it is refused. */
  commitWithNext(): void {
    this.assertOpen();
    this.commitAsked = true;
  }

  /** Refuses a statement once the message that carried the COMMIT is sent. */
  assertOpen(): void {
    if (this.last === null) return;
    this.refused = true;
    throw afterLastMessage();
  }

  defer(statement: Statement): void {
    this.assertOpen();
    this.owed.push(statement);
    this.besidesStart += 1;
  }

  /** Statements whose rows are wanted: sent at the end of this tick with whatever else is owed. */
  read(statements: readonly Statement[]): Promise<Rows[]> {
    try {
      this.assertOpen();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<Rows[]>((resolve, reject) => {
      this.readers.push({ from: this.owed.length, count: statements.length, resolve, reject });
      this.owed.push(...statements);
      this.besidesStart += statements.length;
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      queueMicrotask(() => {
        this.flushScheduled = false;
        // Its readers are told of a failure; nobody else awaits this send.
        this.flush().catch(() => {});
      });
    });
  }

  /**
   * Sends what is owed now, as one message, with the COMMIT when it was asked for
   * (`commitWithNext`) and `mayCommit`: not before a statement that cannot be sent with it.
   */
  async flush(mayCommit = true): Promise<void> {
    if (this.owed.length === 0) return;
    if (mayCommit && this.commitAsked && this.plain === 0) await this.sendLast();
    else await this.sendOwed([]);
  }

  /**
   * A query of the runner's own (TypeORM's, `queryRecords`): after what is owed, on its own.
   * While it is on its way no message carries the COMMIT (it would overtake it): the COMMIT
   * then goes with TypeORM's, a message more.
   */
  async plainQuery<T>(send: () => Promise<T>): Promise<T> {
    this.assertOpen();
    this.plain += 1;
    try {
      await this.flush(false);
      return await send();
    } finally {
      this.plain -= 1;
    }
  }

  /**
   * T3: what is owed, then the COMMIT, as one message. PostgreSQL skips the statements after a
   * failed one in a message, the COMMIT too: the transaction then fails, nothing committed, and
   * its ROLLBACK ends it. T2: a connection that could not be opened, or that TypeORM released
   * already, sends nothing: only a message written to an open one counts as possibly committed.
   */
  private sendLast(): Promise<void> {
    this.commitAsked = false;
    const last = this.sendOwed(['COMMIT'], () => {
      this.commitSent = !this.runner.isReleased;
    }).then(() => {
      this.committed = true;
    });
    this.last = last;
    return last;
  }

  /** TypeORM's COMMIT: with the owed writes, or nothing at all when nothing was ever sent. */
  async commit(): Promise<void> {
    // Sent with the last message already: its answer is the COMMIT's (its failure too). A
    // statement refused after it fails the work even when the work caught the refusal: that
    // write was never stored, and the caller must not take the transaction for whole.
    if (this.last !== null) {
      await this.last;
      if (this.refused) throw afterLastMessage();
      return;
    }
    if (!this.started && this.besidesStart === 0) {
      this.owed = [];
      return;
    }
    await this.sendOwed(['COMMIT']);
  }

  /** TypeORM's ROLLBACK: the owed statements are dropped; nothing to undo when never started. */
  async rollback(): Promise<void> {
    // Committed with its last message: nothing left to undo (a statement after it was refused).
    await this.last?.catch(() => {});
    if (this.committed) return;
    const started = this.started;
    const readers = this.readers;
    this.owed = [];
    this.readers = [];
    this.besidesStart = 0;
    for (const reader of readers) reader.reject(new Error('The transaction was rolled back.'));
    if (started) await this.send('ROLLBACK');
  }

  /** Everything owed, then `after`, as one message; each reader gets its statements' rows. */
  private async sendOwed(after: readonly string[], writing?: () => void): Promise<void> {
    const owed = this.owed;
    const readers = this.readers;
    if (owed.length > 0) this.started = true;
    this.owed = [];
    this.readers = [];
    this.besidesStart = 0;
    let results: Rows[];
    try {
      owed.push(...after);
      results = await sendTogether(this.runner, owed, writing);
    } catch (error) {
      for (const reader of readers) reader.reject(error);
      throw error;
    }
    for (const reader of readers) reader.resolve(results.slice(reader.from, reader.from + reader.count));
  }
}

const pending = new RunnerState<PendingStatements>();

/** T3, T7: whether `runner`'s transaction sent the message that carried its COMMIT. */
export const sentItsLast = (runner: QueryRunner): boolean => pending.get(runner)?.lastMessage().sent === true;

/**
 * Makes `runner`'s transactions lazy: TypeORM's START TRANSACTION (with `enter`, the tenant's
 * settings) is owed, not sent, and every query the runner sends first pays what is owed.
 */
export function owingStatements(runner: QueryRunner, enter: Statement | null): OwedTransaction {
  // One query at a time already (`oneQueryAtATimeOnEveryRunner`).
  const send = runner.query.bind(runner) as SendQuery;
  const statements = new PendingStatements(runner, send);
  pending.set(runner, statements);
  const query: SendQuery = async (sql, parameters, structured) => {
    forgetOnWrite(runner, sql);
    if (sql === START) return statements.begin(enter);
    if (sql === 'COMMIT') return statements.commit();
    if (sql === 'ROLLBACK') return statements.rollback();
    return statements.plainQuery(() => send(sql, parameters, structured));
  };
  runner.query = query as QueryRunner['query'];
  return statements;
}

/**
 * T3: the statements issued before the transaction's next message goes (those of this tick:
 * calls made together) are its last: the COMMIT goes in that message, so a transaction whose
 * work after that message's answer is in memory only costs one round trip less. Any statement
 * issued once that message is sent is refused (it throws); a failed statement in it fails the
 * transaction with nothing committed. T2: from the moment it is sent the transaction counts as
 * committing (a connection lost then: possibly stored, never run again blindly). Outside a
 * lazy transaction it does nothing (each statement is its own).
 */
export function commitWithNextMessage(manager: EntityManager): void {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  pending.get(runner)?.commitWithNext();
}

/**
 * T3: a write whose answer nobody reads, sent with the transaction's next message (at the
 * latest its COMMIT). A transaction that has sent nothing yet sends it now, with its START
 * TRANSACTION: a COMMIT is never a transaction's first message, so a connection lost while
 * sending the first one always left nothing behind (T2: that transaction is safe to run
 * again). Outside a lazy transaction it is sent at once. The write must fail on the server
 * when it cannot be done (`summon_row_required`), since its answer is not read.
 */
export async function deferStatement(manager: EntityManager, statement: Statement): Promise<void> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  const statements = pending.get(runner);
  if (statements?.hasStarted()) {
    forgetOnWrite(runner, statement);
    statements.defer(statement);
  } else await sendTogetherWithOwed(runner, [statement]);
}

/**
 * T3: a write whose answer nobody reads, kept until the transaction's COMMIT even when nothing
 * was sent before it: a transaction of such writes alone is one message (START, the writes,
 * COMMIT), one round trip. T2: the store counts a transaction as committing from the moment its
 * work returns, so a connection lost while that message was on its way is reported as possibly
 * stored, never run again blindly: only for writes whose caller reads the row back then (the
 * outbox's marks). Outside a lazy transaction it is sent at once.
 */
export async function deferToCommit(manager: EntityManager, statement: Statement): Promise<void> {
  const runner = manager.queryRunner;
  if (!runner) throw new Error('A store transaction always has a query runner.');
  const statements = pending.get(runner);
  if (statements === undefined) {
    await sendTogether(runner, [statement]);
    return;
  }
  forgetOnWrite(runner, statement);
  statements.defer(statement);
}

/**
 * T3: runs statements in one round trip on the transaction's own connection — one simple-query
 * message, one reply — with what the transaction owes in front and the statements of other
 * calls made in the same tick beside them; returns each of `statements`' rows in order. Logged
 * as one query. Outside a lazy transaction they are sent at once, on their own.
 */
export function sendTogetherWithOwed(runner: QueryRunner, statements: readonly Statement[]): Promise<Rows[]> {
  for (const statement of statements) forgetOnWrite(runner, statement);
  return pending.get(runner)?.read(statements) ?? sendTogether(runner, statements);
}
