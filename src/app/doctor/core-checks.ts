import { pingRedis } from '../../adapters/redis/redis-ping';
import type { ProcessLauncher } from '../../adapters/sandbox/process-launcher';
import { type Config, databaseDir } from '../../config/config';
import { type CheckResult, fail, ok, reasonOf, warn } from '../../core/ports/doctor-check';
import type { Logger } from '../../core/ports/logger';
import { type Database, openDatabase } from '../../storage/database';

/** The database: reachable (PostgreSQL at DATABASE_URL, or PGlite) and its migrations current. */
export async function checkDatabase(
  config: Config,
  logger: Logger,
): Promise<{ result: CheckResult; database: Database | null }> {
  const where =
    config.databaseUrl === undefined ? `PGlite in ${databaseDir(config)}` : 'PostgreSQL (DATABASE_URL)';
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dbDir: databaseDir(config), logger });
  } catch (error) {
    return {
      result: fail(
        'database',
        `${where} cannot be opened (${reasonOf(error)})`,
        config.databaseUrl === undefined
          ? 'check that the data folder is readable and writable and no other Summon holds it'
          : 'start PostgreSQL or correct DATABASE_URL',
      ),
      database: null,
    };
  }
  try {
    const pending = await database.pendingMigrations();
    return {
      result:
        pending.length === 0
          ? ok('database', `${where}, migrations current`)
          : fail(
              'database',
              `${where}: migrations not run: ${pending.join(', ')}`,
              'run `summon db migrate`',
            ),
      database,
    };
  } catch (error) {
    return {
      result: fail('database', `${where}: ${reasonOf(error)}`, 'start PostgreSQL or correct DATABASE_URL'),
      database,
    };
  }
}

/** Redis (REDIS_URL): the queue and the shared counters answer a PING. */
export async function checkRedis(config: Config): Promise<CheckResult> {
  if (config.redisUrl === undefined) return ok('redis', 'not configured: in-process queue (one process)');
  const failure = await pingRedis(config.redisUrl);
  return failure === null
    ? ok('redis', 'REDIS_URL answers')
    : fail('redis', `REDIS_URL does not answer (${failure})`, 'start Redis or correct REDIS_URL');
}

/** X4: whether agents' commands can be confined. */
export async function checkSandbox(launcher: ProcessLauncher): Promise<CheckResult[]> {
  const status = await launcher.status();
  const extra = status.warnings.map((w) => warn('sandbox', w, 'see docs/sandbox-network.md'));
  if (status.mode === 'bubblewrap')
    return [
      ok('sandbox', `bubblewrap${status.enforced.length > 0 ? `: ${status.enforced.join(', ')}` : ''}`),
      ...extra,
    ];
  if (status.mode === 'off')
    return [
      warn(
        'sandbox',
        'off (SUMMON_SANDBOX=off): agents’ commands run unconfined, as Summon’s user',
        'unset SUMMON_SANDBOX to confine them (needs bubblewrap)',
      ),
      ...extra,
    ];
  return [
    fail('sandbox', 'unavailable: agents’ commands will be refused', status.problem ?? 'install bubblewrap'),
    ...extra,
  ];
}

/** SUMMON_PUBLIC_URL: this server's `/healthz` answers there. */
export async function checkPublicUrl(config: Config): Promise<CheckResult> {
  const base = config.publicUrl;
  if (base === undefined) return ok('public url', 'not configured (SUMMON_PUBLIC_URL)');
  const url = `${base.replace(/\/+$/, '')}/healthz`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (response.ok) return ok('public url', `${url} answers`);
    return fail(
      'public url',
      `${url} answered ${response.status}`,
      'point SUMMON_PUBLIC_URL (and your proxy) at this server',
    );
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return fail(
      'public url',
      `${url} is not reachable (${reasonOf(cause ?? error)})`,
      'start Summon (`summon serve`) and check the proxy or tunnel in front of it',
    );
  }
}
