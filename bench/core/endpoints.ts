/** Where the benchmark's services live. Both must be on this machine (loopback only). */
export interface Endpoints {
  /** A PostgreSQL server's maintenance database; fresh databases are created beside it. */
  postgresServerUrl: string;
  redisUrl: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);

function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The URL when it names a loopback host (and no other host hides in its query); throws otherwise. */
function loopbackUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} is not a URL.`);
  }
  // A `host` that is a directory names a Unix socket (this machine); any other host is refused.
  const socketHost = url.searchParams.get('host');
  if (!isLoopback(url) || (socketHost !== null && !socketHost.startsWith('/'))) {
    throw new Error(`${variable} must point at this machine (127.0.0.1, ::1 or localhost).`);
  }
  return value;
}

export function readEndpoints(env: NodeJS.ProcessEnv = process.env): Endpoints {
  return {
    postgresServerUrl: loopbackUrl(
      'SUMMON_BENCH_PG_URL',
      env.SUMMON_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    ),
    redisUrl: loopbackUrl('SUMMON_BENCH_REDIS_URL', env.SUMMON_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'),
  };
}
