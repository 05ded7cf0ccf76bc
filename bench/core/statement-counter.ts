import type { Logger as TypeormLogger } from 'typeorm';
import type { Database } from '../../src/storage/database';

/** What the database was asked between `reset()` and `snapshot()`. */
export interface StatementCounts {
  statements: number;
  /**
   * Round trips to the database, BEGIN and COMMIT included: statements sent together (one
   * simple-query message, with what the transaction owes: its START TRANSACTION, deferred
   * writes, or its COMMIT) are one round trip.
   */
  roundTrips: number;
  /** Transactions opened (`START TRANSACTION`); an autocommitted statement counts as none. */
  transactions: number;
  /** The bytes of the queries' text and parameters sent (UTF-8; the protocol's framing not counted). */
  bytesSent: number;
  /** Statements by their kind and first table (`SELECT runs`, `UPDATE run_checkpoints`…). */
  byShape: Map<string, number>;
  /** Every statement's shape in the order sent, transactions as `BEGIN`/`COMMIT`, messages of several marked. */
  sequence: string[];
}

const shapeOf = (sql: string): string => {
  const text = sql.replace(/\s+/g, ' ').trim();
  const verb = (text.split(' ')[0] ?? '').toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+"?([a-z_]+)"?/i.exec(text)?.[1] ?? '';
  return table === '' ? text.slice(0, 70) : `${verb} ${table}`;
};

const emptyCounts = (): StatementCounts => ({
  statements: 0,
  roundTrips: 0,
  transactions: 0,
  bytesSent: 0,
  byShape: new Map(),
  sequence: [],
});

/**
 * Counts every statement the store sends, through TypeORM's logger hook (it is handed every
 * query before it runs). For the benchmarks only: it replaces the data source's logger.
 */
export class StatementCounter {
  private counts: StatementCounts = emptyCounts();

  constructor(database: Database) {
    const counting: TypeormLogger = {
      logQuery: (query, parameters) => this.count(query, parameters),
      logQueryError: () => {},
      logQuerySlow: () => {},
      logSchemaBuild: () => {},
      logMigration: () => {},
      log: () => {},
    };
    Object.defineProperty(database.dataSource, 'logger', { value: counting, configurable: true });
  }

  reset(): void {
    this.counts = emptyCounts();
  }

  snapshot(): StatementCounts {
    return { ...this.counts, byShape: new Map(this.counts.byShape), sequence: [...this.counts.sequence] };
  }

  private count(sql: string, parameters: unknown): void {
    this.counts.bytesSent += Buffer.byteLength(sql);
    const values = Array.isArray(parameters) ? parameters : Object.values(parameters ?? {});
    for (const value of values) this.counts.bytesSent += Buffer.byteLength(String(value ?? ''));
    // One logged query is one message to the database and its answer: one round trip, whatever
    // it carries (a transaction's START and COMMIT go with its statements where they can, T3).
    this.counts.roundTrips += 1;
    const together = sql.split(';\n');
    this.counts.sequence.push(`round trip ${this.counts.roundTrips}`);
    for (const statement of together) {
      if (/^START TRANSACTION/i.test(statement)) {
        this.counts.transactions += 1;
        this.counts.sequence.push('  BEGIN');
      } else if (/^(COMMIT|ROLLBACK)/i.test(statement)) {
        this.counts.sequence.push(`  ${statement.toUpperCase()}`);
      } else this.countStatement(statement, '  ');
    }
  }

  private countStatement(statement: string, traced: string | null): void {
    const shape = shapeOf(statement);
    if (traced !== null) this.counts.sequence.push(`${traced}${shape}`);
    this.counts.statements += 1;
    this.counts.byShape.set(shape, (this.counts.byShape.get(shape) ?? 0) + 1);
  }
}
