import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { Database } from '../../src/storage/database';
import { StatementCounter } from '../core/statement-counter';

/** What one burst cost, counted (not timed): the store's statements, both CPUs, rows written. */
export interface BurstCounts {
  statements: number;
  roundTrips: number;
  transactions: number;
  /** The bytes of the store's queries (text and parameters). */
  bytesSent: number;
  /** The bench process's CPU (Summon's side: routing, the store, the driver). */
  summonCpuMs: number;
  /** The CPU of this database's PostgreSQL backends (the store's connections), from `/proc`. */
  postgresCpuMs: number | null;
  /** Rows added, by table (a row counted in each table it went into). */
  rows: Map<string, number>;
  /**
   * The WAL this database's writes made (records naming its relations; commits not included),
   * by relation (a table or an index): bytes and records; null without `pg_walinspect`.
   */
  wal: Map<string, { bytes: number; records: number }> | null;
  byShape: Map<string, number>;
}

const TICK_MS = 10; // USER_HZ 100 on Linux

/**
 * Counts a burst's cost beside its time: statements and round trips through the store (TypeORM's
 * logger hook; the inbox's own pool, which T4's ack writes through, is not seen), the bench
 * process's CPU, its database's backends' CPU, and the rows each table gained (read after the
 * burst by a connection of its own, outside the measured time).
 */
export class AccessProbe {
  private readonly counter: StatementCounter;
  private cpu = process.cpuUsage();
  private backends = new Map<number, number>();
  private tables = new Map<string, number>();
  private walFrom: string | null = null;

  private constructor(
    database: Database,
    private readonly admin: Client,
  ) {
    this.counter = new StatementCounter(database);
  }

  static async open(database: Database, url: string): Promise<AccessProbe> {
    const admin = new Client({ connectionString: url });
    await admin.connect();
    // The WAL's records, read back (PostgreSQL 15's contrib; in this bench's own database only).
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect').catch(() => {});
    return new AccessProbe(database, admin);
  }

  async start(): Promise<void> {
    this.backends = await this.backendTicks();
    this.tables = await this.rowCounts();
    this.walFrom = await this.walNow();
    this.counter.reset();
    this.cpu = process.cpuUsage();
  }

  async stop(): Promise<BurstCounts> {
    const cpu = process.cpuUsage(this.cpu);
    const counts = this.counter.snapshot();
    const backends = await this.backendTicks();
    let ticks = 0;
    for (const [pid, now] of backends) ticks += now - (this.backends.get(pid) ?? 0);
    const tables = await this.rowCounts();
    const rows = new Map<string, number>();
    for (const [table, now] of tables) {
      const added = now - (this.tables.get(table) ?? 0);
      if (added !== 0) rows.set(table, added);
    }
    const wal = await this.walSince(this.walFrom);
    return {
      wal,
      statements: counts.statements,
      roundTrips: counts.roundTrips,
      transactions: counts.transactions,
      bytesSent: counts.bytesSent,
      summonCpuMs: (cpu.user + cpu.system) / 1000,
      postgresCpuMs: backends.size === 0 ? null : ticks * TICK_MS,
      rows,
      byShape: counts.byShape,
    };
  }

  /**
   * P24: admitted people whose record did not get the first nickname offered (`person-<6 digits>`,
   * the bench's names are distinct): each went through `summon_admit_member`'s fallback.
   */
  async admittedOffFirstNickname(): Promise<{ admitted: number; offFirst: number }> {
    const found = await this.admin.query<{ admitted: number; off: number }>(
      `SELECT count(*)::int AS admitted,
              count(*) FILTER (WHERE nickname !~ '^person-[0-9]{6}$')::int AS off
       FROM members WHERE access_via IS NOT NULL`,
    );
    return { admitted: found.rows[0]?.admitted ?? 0, offFirst: found.rows[0]?.off ?? 0 };
  }

  close(): Promise<void> {
    return this.admin.end();
  }

  private async walNow(): Promise<string | null> {
    const found = await this.admin.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn');
    return found.rows[0]?.lsn ?? null;
  }

  private async walSince(from: string | null): Promise<BurstCounts['wal']> {
    const to = await this.walNow();
    if (from === null || to === null) return null;
    try {
      const found = await this.admin.query<{ name: string; bytes: string; records: string }>(
        `WITH w AS (
           SELECT record_length, (regexp_match(block_ref, 'rel \\d+/(\\d+)/(\\d+)')) AS rel
           FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn) WHERE block_ref IS NOT NULL)
         SELECT coalesce(c.relname, 'other') AS name, sum(record_length) AS bytes, count(*) AS records
         FROM w LEFT JOIN pg_class c ON c.relfilenode = w.rel[2]::oid
         WHERE w.rel[1]::oid = (SELECT oid FROM pg_database WHERE datname = current_database())
         GROUP BY 1`,
        [from, to],
      );
      return new Map(found.rows.map((r) => [r.name, { bytes: Number(r.bytes), records: Number(r.records) }]));
    } catch {
      return null;
    }
  }

  private async backendTicks(): Promise<Map<number, number>> {
    const found = await this.admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const ticks = new Map<number, number>();
    for (const { pid } of found.rows) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      } catch {
        // Not readable (another host or user): the column is left out.
      }
    }
    return ticks;
  }

  private async rowCounts(): Promise<Map<string, number>> {
    const tables = await this.admin.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'",
    );
    if (tables.rows.length === 0) return new Map();
    const sql = tables.rows
      .map(({ name }) => `SELECT '${name}' AS name, count(*)::int AS n FROM "${name}"`)
      .join(' UNION ALL ');
    const found = await this.admin.query<{ name: string; n: number }>(sql);
    return new Map(found.rows.map((row) => [row.name, row.n]));
  }
}
