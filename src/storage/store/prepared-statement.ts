import { createHash } from 'node:crypto';
import type { EntityManager, QueryRunner } from 'typeorm';
import { RunnerState } from '../runner-state';

/**
 * T3: a statement the database plans once per connection. Planning a turn's small statements
 * costs PostgreSQL about as much as running them; a prepared statement is parsed once and, after
 * five runs, executed with its cached generic plan. It goes in the simple-query messages of
 * `statements-together.ts` as `EXECUTE name(args)`, its arguments literals (`sqlLiteral`,
 * `textLiteral`), preceded by its `PREPARE` the first time a connection meets it.
 */
export class PreparedStatement {
  readonly name: string;

  /**
   * `text` uses `$1`, `$2`…, typed by `types` (`uuid`, `text`, `integer`, `timestamptz`); a
   * `context` (`StatementContext`) names it apart from the same text run in another.
   */
  constructor(
    readonly types: readonly string[],
    readonly text: string,
    context: StatementContext = 'system',
  ) {
    const digest = createHash('sha1')
      .update(`${types.join(',')}\n${text}${context === 'system' ? '' : `\n${context}`}`)
      .digest('hex');
    this.name = `summon_${digest.slice(0, 24)}`;
  }

  /** One run of it; each argument a literal of its parameter's type. */
  with(...args: string[]): PreparedCall {
    return this.run(args);
  }

  /** `with`, its arguments as one list. */
  run(args: readonly string[]): PreparedCall {
    if (args.length !== this.types.length) {
      throw new Error(`${this.name} takes ${this.types.length} arguments, not ${args.length}.`);
    }
    return { prepared: this, args };
  }
}

/**
 * A2, T3: the role a transaction's statements run as: the connecting role (`system`, which owns
 * the tables) or `summon_tenant` under row-level security (`tenant`). PostgreSQL keeps one plan
 * per prepared statement and makes it again whenever the statement runs as another role than
 * the one it was planned for (its policies differ), so a statement both kinds of transaction
 * run on one connection would be planned at every run: each kind prepares its own.
 */
export type StatementContext = 'system' | 'tenant';

/** The runners whose transaction entered a tenant's context. */
const tenantRunners = new RunnerState<true>();

/** A2, T3: `runner`'s transaction runs its statements as `context` (`owingStatements`' `enter`). */
export const enterContext = (runner: QueryRunner, context: StatementContext): void => {
  if (context === 'tenant') tenantRunners.set(runner, true);
  else tenantRunners.delete(runner);
};

/** A2, T3: the role `manager`'s transaction runs its statements as (`StatementContext`). */
export const statementContext = (manager: EntityManager): StatementContext => {
  const runner = manager.queryRunner;
  return runner !== undefined && tenantRunners.has(runner) ? 'tenant' : 'system';
};

/**
 * The prepared statement of a text made at run time (an update's or an insert's set of
 * columns), its parameters' types taken from where they are used: one per text and context,
 * named once. The texts come from the code's own builders, so there are few of them.
 */
export class InferredStatements {
  private readonly byText = new Map<string, PreparedStatement>();

  private readonly byShape = new Map<string, PreparedStatement>();

  with(text: string, args: readonly string[], context: StatementContext = 'system'): PreparedCall {
    const key = `${context}\n${text}`;
    let prepared = this.byText.get(key);
    if (prepared === undefined) {
      prepared = new PreparedStatement(
        args.map(() => 'unknown'),
        text,
        context,
      );
      this.byText.set(key, prepared);
    }
    return prepared.run(args);
  }

  /**
   * T3: `with`, the text made only the first time `shape` (a short key that fixes the text: a
   * table, its columns) is met, so a hot statement's text is not built again each run.
   */
  withShape(
    shape: string,
    text: () => string,
    args: readonly string[],
    context: StatementContext = 'system',
  ): PreparedCall {
    const key = `${context}:${shape}`;
    const prepared = this.byShape.get(key);
    if (prepared !== undefined) return prepared.run(args);
    const call = this.with(text(), args, context);
    this.byShape.set(key, call.prepared);
    return call;
  }
}

export interface PreparedCall {
  readonly prepared: PreparedStatement;
  readonly args: readonly string[];
}

/** A statement sent with others: plain SQL, or a run of a prepared statement. */
export type Statement = string | PreparedCall;

/** A message's SQL and which of its results are the caller's (not a PREPARE's). */
export interface RenderedStatements {
  sql: string;
  /** The callers' results, in order, out of every result of the message. */
  theirs<T>(results: readonly T[]): readonly T[];
  /** After the message failed with `error`: what it prepared may or may not exist now. */
  failed(error: unknown): void;
}

/**
 * What one connection (one database session) has prepared. A `PREPARE` is not undone by a
 * rollback, but one that follows a failed statement of its message never runs: after such a
 * message the connection's statements are unknown, and its next message starts with
 * `DEALLOCATE ALL` (which cannot fail) and prepares again what it uses.
 */
class ConnectionStatements {
  private readonly prepared = new Set<string>();
  private unknown = false;

  /** T3: the PREPAREs of `statements` this connection lacks, as one message; null when none. */
  prepares(statements: readonly PreparedStatement[]): PreparesMessage | null {
    const parts = [
      this.resetIfUnknown(),
      ...statements.map((prepared) => this.prepareIfNew(prepared)),
    ].filter((part): part is string => part !== null);
    if (parts.length === 0) return null;
    return {
      sql: parts.join(';\n'),
      failed: () => {
        this.unknown = true;
      },
    };
  }

  render(statements: readonly Statement[]): RenderedStatements {
    const parts: string[] = [];
    const keep: boolean[] = [];
    const added = (sql: string | null, theirs: boolean) => {
      if (sql === null) return;
      parts.push(sql);
      keep.push(theirs);
    };
    const reset = this.resetIfUnknown();
    added(reset, false);
    let prepares = reset !== null;
    for (const statement of statements) {
      if (typeof statement === 'string') {
        added(statement, true);
        continue;
      }
      const { prepared, args } = statement;
      const prepare = this.prepareIfNew(prepared);
      added(prepare, false);
      prepares ||= prepare !== null;
      added(`EXECUTE ${prepared.name}(${args.join(', ')})`, true);
    }
    return {
      sql: parts.join(';\n'),
      // Most messages hold only the callers' statements: their results are all theirs as they are.
      theirs: (results) => (keep.includes(false) ? results.filter((_, i) => keep[i]) : results),
      failed: (error) => {
        if (prepares || STATEMENT_GONE.has(codeOf(error))) this.unknown = true;
      },
    };
  }

  /** `DEALLOCATE ALL` when the connection's statements are unknown (they are then none); else null. */
  private resetIfUnknown(): string | null {
    if (!this.unknown) return null;
    this.prepared.clear();
    this.unknown = false;
    return 'DEALLOCATE ALL';
  }

  /** The statement's PREPARE when the connection does not have it yet; else null. */
  private prepareIfNew(prepared: PreparedStatement): string | null {
    if (this.prepared.has(prepared.name)) return null;
    // Counted as prepared at once: a message sent behind this one on the same connection runs
    // after it, so it must not prepare the statement again.
    this.prepared.add(prepared.name);
    return `PREPARE ${prepared.name}(${prepared.types.join(', ')}) AS ${prepared.text}`;
  }
}

/**
 * SQLSTATEs saying a prepared statement is not what this process thinks: it does not exist
 * (26000), exists already (42P05), or its cached plan no longer fits its tables (0A000, "cached
 * plan must not change result type", after a migration changed a table).
 */
const STATEMENT_GONE = new Set(['26000', '42P05', '0A000']);

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';

const byConnection = new WeakMap<object, ConnectionStatements>();

const statementsOf = (connection: object): ConnectionStatements => {
  let known = byConnection.get(connection);
  if (known === undefined) {
    known = new ConnectionStatements();
    byConnection.set(connection, known);
  }
  return known;
};

/** `statements` as one message for `connection` (the driver's client of one session). */
export function renderStatements(connection: object, statements: readonly Statement[]): RenderedStatements {
  return statementsOf(connection).render(statements);
}

/** A message of PREPAREs alone (`warm-connections.ts`), and what to do when it failed. */
export interface PreparesMessage {
  sql: string;
  /** After the message failed: what it prepared may or may not exist now. */
  failed(): void;
}

/**
 * T3: the PREPAREs of `statements` that `connection` has not run yet, as one message (null when
 * it has them all); once sent, its later messages use them without preparing them again.
 */
export function preparesFor(
  connection: object,
  statements: readonly PreparedStatement[],
): PreparesMessage | null {
  return statementsOf(connection).prepares(statements);
}
