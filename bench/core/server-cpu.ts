import { readdirSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { Client } from 'pg';

/**
 * The CPU time the benchmark's PostgreSQL server and Redis server spend, read before and after
 * a measured stretch: what a reply costs the services beside what it costs this process. Both
 * run on this machine (the benchmark talks to loopback only), so on a 2-CPU machine the three
 * together bound the rate. PostgreSQL: the server's processes in `/proc` (its postmaster, found
 * as the parent of this connection's backend, and every child of it, with the children it has
 * already reaped); Redis: `INFO cpu`. Null where it cannot be read (no `/proc`, another user's
 * processes): the report then leaves the column out.
 */
export interface ServerCpu {
  postgresMs: number | null;
  redisMs: number | null;
}

export interface ServerCpuProbe {
  read(): Promise<ServerCpu>;
  close(): Promise<void>;
}

export async function openServerCpuProbe(
  postgresServerUrl: string,
  redisUrl: string,
): Promise<ServerCpuProbe> {
  const pg = new Client({ connectionString: postgresServerUrl });
  await pg.connect();
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const backend = (await pg.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  const postmaster = backend === undefined ? null : parentOf(backend);
  return {
    read: async () => ({
      postgresMs: postmaster === null ? null : treeCpuMs(postmaster),
      redisMs: redisCpuMs(await redis.info('cpu')),
    }),
    close: async () => {
      await pg.end();
      redis.disconnect();
    },
  };
}

/** The difference of two readings; null when either side is. */
export const cpuSpent = (before: ServerCpu, after: ServerCpu): ServerCpu => ({
  postgresMs: minus(after.postgresMs, before.postgresMs),
  redisMs: minus(after.redisMs, before.redisMs),
});

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** `/proc/<pid>/stat`'s fields after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields === null ? null : Number(fields[1]);
}

/** utime + stime (+ cutime + cstime: its reaped children) of `root` and of its live children. */
function treeCpuMs(root: number): number | null {
  const own = statFields(root);
  if (own === null) return null;
  let ticks = ticksOf(own, true);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === root) continue;
    const fields = statFields(pid);
    if (fields !== null && Number(fields[1]) === root) ticks += ticksOf(fields, false);
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

// Fields counted from the state (index 0): utime 11, stime 12, cutime 13, cstime 14.
const ticksOf = (fields: string[], withReaped: boolean) =>
  Number(fields[11]) + Number(fields[12]) + (withReaped ? Number(fields[13]) + Number(fields[14]) : 0);

function redisCpuMs(info: string): number | null {
  const value = (name: string) => Number(info.match(new RegExp(`^${name}:([\\d.]+)`, 'm'))?.[1]);
  const seconds = value('used_cpu_user') + value('used_cpu_sys');
  return Number.isFinite(seconds) ? seconds * 1000 : null;
}
