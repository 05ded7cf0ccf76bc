import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { type ReplyStages, readReplyStages } from './reply-stages';

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of one process in ms (`/proc/<pid>/stat`); 0 once it is gone. */
export function processCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * The CPU of the process's main thread alone (its event loop: JavaScript, the callbacks, the
 * collector's share done there): the rest of `processCpuMs` is V8's and libuv's helper threads,
 * compiling hot functions with TurboFan and collecting garbage beside the loop.
 */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

/** utime + stime of a `/proc` stat file, in milliseconds; 0 once it is gone. */
function statCpuMs(file: string): number {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * What one database did: its commits, rows inserted and updated (of which HOT: no index entry
 * written), its backends' CPU, and the WAL the server wrote meanwhile (every database's).
 */
export interface DatabaseWork {
  commits: number;
  inserted: number;
  updated: number;
  hotUpdated: number;
  backendCpuMs: number;
  walBytes: number;
}

/**
 * Reads the bench's own database's counters on the server: `pg_stat_database.xact_commit`,
 * `pg_stat_user_tables` n_tup_ins / n_tup_upd, and the CPU of the backends serving it
 * (`pg_stat_activity` pids, `/proc/<pid>/stat`; a backend that ended between two readings
 * loses its share). Backends report their counters when they go idle, at most once a second and
 * otherwise within 10 s (PostgreSQL 15's cumulative statistics): `settle` waits that out. The
 * tables' counters are read through a connection to the database itself, and each such read is
 * one commit there: `read` counts it and takes it off.
 */
export class DatabaseProbe {
  private readonly seen = new Map<number, number>();
  private ownCommits = 0;

  private constructor(
    private readonly server: Client,
    private readonly own: Client,
    private readonly name: string,
    private readonly ownPid: number,
  ) {}

  static async open(serverUrl: string, databaseUrl: string, name: string): Promise<DatabaseProbe> {
    const server = new Client({ connectionString: serverUrl });
    await server.connect();
    const own = new Client({ connectionString: databaseUrl });
    await own.connect();
    const pid = (await own.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    return new DatabaseProbe(server, own, name, pid);
  }

  /** Waits until every backend has reported its counters (the longest interval PostgreSQL 15 waits). */
  static settle(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 11_000));
  }

  async read(): Promise<DatabaseWork> {
    const database = await this.server.query<{ commits: string; wal: string }>(
      `SELECT xact_commit AS commits, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal
         FROM pg_stat_database WHERE datname = $1`,
      [this.name],
    );
    const tables = await this.own.query<{
      inserted: string | null;
      updated: string | null;
      hot: string | null;
    }>(
      'SELECT sum(n_tup_ins) AS inserted, sum(n_tup_upd) AS updated, sum(n_tup_hot_upd) AS hot FROM pg_stat_user_tables',
    );
    this.ownCommits += 1;
    const pids = await this.server.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
      [this.name, this.ownPid],
    );
    for (const { pid } of pids.rows) this.seen.set(pid, processCpuMs(pid));
    let backendCpuMs = 0;
    for (const [pid, last] of this.seen) backendCpuMs += Math.max(processCpuMs(pid), last);
    return {
      commits: Number(database.rows[0]?.commits ?? 0) - this.ownCommits,
      inserted: Number(tables.rows[0]?.inserted ?? 0),
      updated: Number(tables.rows[0]?.updated ?? 0),
      hotUpdated: Number(tables.rows[0]?.hot ?? 0),
      backendCpuMs,
      walBytes: Number(database.rows[0]?.wal ?? 0),
    };
  }

  /**
   * Gathers the planner's statistics of the bot's tables, as autovacuum does on a running server
   * within a minute of a fresh database's first writes (`autovacuum_naptime`): a bench's whole
   * run is shorter than that, so without this a stretch is measured on plans made for empty
   * tables, and differently from run to run as autovacuum happens to come in it or not.
   */
  async analyze(): Promise<void> {
    this.ownCommits += 1;
    await this.own.query('ANALYZE');
  }

  /** Where the replies of the stretch that began at `since` waited (`reply-stages.ts`). */
  async replyStages(since: Date): Promise<ReplyStages | null> {
    this.ownCommits += 1;
    return readReplyStages(this.own, since);
  }

  async close(): Promise<void> {
    await this.own.end();
    await this.server.end();
  }
}

export const workBetween = (before: DatabaseWork, after: DatabaseWork): DatabaseWork => ({
  commits: after.commits - before.commits,
  inserted: after.inserted - before.inserted,
  updated: after.updated - before.updated,
  hotUpdated: after.hotUpdated - before.hotUpdated,
  backendCpuMs: after.backendCpuMs - before.backendCpuMs,
  walBytes: after.walBytes - before.walBytes,
});
