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
    if (/^START TRANSACTION/i.test(sql)) this.counts.transactions += 1;
    const shape = shapeOf(sql);
    this.counts.sequence.push(shape.replace(/^START TRANSACTION/, 'BEGIN'));
    if (/^(START TRANSACTION|COMMIT|ROLLBACK)/i.test(sql)) return;
    this.counts.roundTrips += 1;
    const together = sql.split(';\n');
    if (together.length > 1) this.counts.sequence.push(`  (${together.length} statements together)`);
    for (const statement of together) {
      const each = shapeOf(statement);
      this.counts.statements += 1;
      this.counts.byShape.set(each, (this.counts.byShape.get(each) ?? 0) + 1);
    }
  }
}
