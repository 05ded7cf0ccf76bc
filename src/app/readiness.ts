import { pingRedis } from '../adapters/redis/redis-ping';
import type { Runtime } from './runtime';

/** What `/readyz` answers: ready, or the parts that are not, each with why. */
export interface Readiness {
  ready: boolean;
  database: string;
  queue: string;
  migrations: string;
  /** One sentence per part that is not ready. */
  problems: string[];
}

const TIMEOUT_MS = 3000;

/**
 * `/readyz`: the database answers and its migrations are current, and the queue is reachable
 * (Redis with REDIS_URL; the in-process queue always is). Each part is asked within 3 s.
 */
export async function checkReadiness(runtime: Pick<Runtime, 'database' | 'config'>): Promise<Readiness> {
  const problems: string[] = [];
  let database = 'ok';
  let migrations = 'ok';
  try {
    const pending = await withTimeout(runtime.database.pendingMigrations(), TIMEOUT_MS);
    if (pending.length > 0) {
      migrations = `pending: ${pending.join(', ')}`;
      problems.push(`migrations are not current (${pending.join(', ')}): run \`summon db migrate\``);
    }
  } catch (error) {
    database = `unreachable: ${reason(error)}`;
    migrations = 'unknown';
    problems.push(`the database is unreachable (${reason(error)})`);
  }
  let queue = 'ok';
  const redisUrl = runtime.config.redisUrl;
  if (redisUrl !== undefined) {
    const failure = await pingRedis(redisUrl, TIMEOUT_MS);
    if (failure !== null) {
      queue = `unreachable: ${failure}`;
      problems.push(`the queue's Redis is unreachable (${failure})`);
    }
  }
  return { ready: problems.length === 0, database, queue, migrations, problems };
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
