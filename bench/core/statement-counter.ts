import type { Logger as TypeormLogger } from 'typeorm';
import type { Database } from '../../src/storage/database';

/** What the database was asked between `reset()` and `snapshot()`. */
export interface StatementCounts {
  statements: number;
  /**
   * Round trips to the database for statements (BEGIN/COMMIT not counted): statements sent
   * together (`queryTogether`, one simple-query message) are one round trip and several statements.
   */
  roundTrips: number;
  /** Transactions opened (`START TRANSACTION`); an autocommitted statement counts as none. */
  transactions: number;
  /** Statements by their kind and first table (`SELECT runs`, `UPDATE run_checkpoints`…). */
  byShape: Map<string, number>;
  /** Every statement's shape in the order sent, transactions as `BEGIN`/`COMMIT`. */
  sequence: string[];
}

const shapeOf = (sql: string): string => {
  const text = sql.replace(/\s+/g, ' ').trim();
  const verb = (text.split(' ')[0] ?? '').toUpperCase();
  const table = /\b(?:FROM|INTO|UPDATE)\s+"?([a-z_]+)"?/i.exec(text)?.[1] ?? '';
  return table === '' ? text.slice(0, 70) : `${verb} ${table}`;
};

/**
 * Counts every statement the store sends, through TypeORM's logger hook (it is handed every
 * query before it runs). For the benchmarks only: it replaces the data source's logger.
 */
export class StatementCounter {
  private counts: StatementCounts = {
    statements: 0,
    roundTrips: 0,
    transactions: 0,
    byShape: new Map(),
    sequence: [],
  };

  constructor(database: Database) {
    const counting: TypeormLogger = {
      logQuery: (query) => this.count(query),
      logQueryError: () => {},
      logQuerySlow: () => {},
      logSchemaBuild: () => {},
      logMigration: () => {},
      log: () => {},
    };
    Object.defineProperty(database.dataSource, 'logger', { value: counting, configurable: true });
  }

  reset(): void {
    this.counts = { statements: 0, roundTrips: 0, transactions: 0, byShape: new Map(), sequence: [] };
  }

  snapshot(): StatementCounts {
    return { ...this.counts, byShape: new Map(this.counts.byShape), sequence: [...this.counts.sequence] };
  }

  private count(sql: string): void {
    const together = sql.split(';\n');
    if (/^START TRANSACTION/i.test(sql)) {
      // A transaction's first statements may go with its START TRANSACTION: no round trip of their own.
      this.counts.transactions += 1;
      this.counts.sequence.push('BEGIN');
      for (const statement of together.slice(1)) this.countStatement(statement, '  + ');
      return;
    }
    const shape = shapeOf(sql);
    this.counts.sequence.push(shape);
    if (/^(COMMIT|ROLLBACK)/i.test(sql)) return;
    this.counts.roundTrips += 1;
    if (together.length > 1) this.counts.sequence.push(`  (${together.length} statements together)`);
    for (const statement of together) this.countStatement(statement, null);
  }

  private countStatement(statement: string, traced: string | null): void {
    const shape = shapeOf(statement);
    if (traced !== null) this.counts.sequence.push(`${traced}${shape}`);
    this.counts.statements += 1;
    this.counts.byShape.set(shape, (this.counts.byShape.get(shape) ?? 0) + 1);
  }
}
