/**
 * What one `summon serve` process does (`SUMMON_ROLE`, `--role`): `all` (the default) serves HTTP,
 * the chat front ends and runs turns; `web` serves HTTP and the front ends and routes the inbox,
 * running no turns; `worker` runs turns (queue workers, dead-run recovery) and posts to chat
 * without listening to it. Any number of workers share one PostgreSQL and one Redis.
 */
export type ServeRole = 'all' | 'web' | 'worker';

export const SERVE_ROLES: readonly ServeRole[] = ['all', 'web', 'worker'];

export function parseServeRole(value: string | undefined): ServeRole {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '') return 'all';
  const role = SERVE_ROLES.find((r) => r === text);
  if (role === undefined)
    throw new Error(`SUMMON_ROLE must be one of ${SERVE_ROLES.join(', ')} (default all), got "${value}"`);
  return role;
}

/**
 * A `web` or `worker` process shares its turns with the others through Redis: without
 * `REDIS_URL` the queue is in-process and nothing would ever reach the other side. Null when fine.
 */
export function roleProblem(role: ServeRole, redisUrl: string | undefined): string | null {
  if (role === 'all' || redisUrl !== undefined) return null;
  return `SUMMON_ROLE=${role} needs REDIS_URL: web and worker processes share the turn queue through Redis (and one PostgreSQL, DATABASE_URL); without it the queue is in-process and cannot be shared. Set REDIS_URL, or run one process with the role all.`;
}
