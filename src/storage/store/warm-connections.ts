import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../../core/ports/logger';
import { type PreparedStatement, preparesFor } from './prepared-statement';
import { ADVANCE_CURSOR } from './repositories/channel-cursor-repository';
import { INBOX_CLAIM, INBOX_MARK_ROUTED } from './repositories/inbox-repository';
import { ADMIT_MEMBER, ADMIT_MEMBERS } from './repositories/member-repository';
import { ADD_SENDING, MARK_SENT } from './repositories/outbox-repository';
import { RECORD_EVENT } from './repositories/processed-event-repository';
import { ROUTING_READ_PREPARED } from './repositories/routing-read-repository';
import { REMOVE_CHECKPOINT } from './repositories/run-checkpoint-repository';
import { RUN_LANE_PREPARED } from './repositories/run-lane-repository';
import { STEERING_PREPARED } from './repositories/run-steering-repository';
import { TURN_READ_PREPARED } from './repositories/turn-read-repository';
import { ADD_TO_RUN } from './repositories/usage-repository';
import { TENANT_SETTINGS } from './tenant-settings';

/** The statements of routing (the inbox's too) and of every turn, prepared on each connection at start. */
export const HOT_STATEMENTS: readonly PreparedStatement[] = [
  TENANT_SETTINGS,
  INBOX_CLAIM,
  INBOX_MARK_ROUTED,
  RECORD_EVENT,
  ADVANCE_CURSOR,
  REMOVE_CHECKPOINT,
  // P24: a first message of an admitted person writes their record.
  ADMIT_MEMBER,
  ADMIT_MEMBERS,
  ADD_TO_RUN,
  ADD_SENDING,
  MARK_SENT,
  ...ROUTING_READ_PREPARED,
  ...TURN_READ_PREPARED,
  ...RUN_LANE_PREPARED,
  ...STEERING_PREPARED,
];

/**
 * T3: opens `size` connections of `pool` at once and prepares `statements` on each, so that the
 * first burst after a start (or after the pool was emptied) finds its connections open and its
 * statements parsed, as steady traffic does, instead of paying for their start and their first
 * PREPAREs (the backends' catalog caches, the statements' parse) itself. The pool keeps them
 * (`min`). A connection that cannot be warmed is only logged: the first statement it sends
 * prepares what it uses, as without warming.
 */
export async function warmConnections(
  pool: Pool,
  size: number,
  statements: readonly PreparedStatement[],
  logger?: Logger,
): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
  const clients = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const failures = opened.length - clients.length;
  if (failures > 0)
    logger?.warn(
      { component: 'database', failures },
      'some database connections could not be opened at start',
    );
  await Promise.all(clients.map((client) => prepareOn(client, statements, logger)));
}

async function prepareOn(
  client: PoolClient,
  statements: readonly PreparedStatement[],
  logger: Logger | undefined,
): Promise<void> {
  const message = preparesFor(client, statements);
  try {
    if (message !== null) await client.query(message.sql);
  } catch (error) {
    message?.failed();
    logger?.warn({ component: 'database', err: String(error) }, 'a database connection could not be warmed');
  } finally {
    client.release();
  }
}
