import { AppError, ConflictError, NotFoundError, ValidationError } from '../../core/errors';

/** SQLSTATE codes that the store turns into the core's errors. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const CHECK_VIOLATION = '23514';
const INSUFFICIENT_PRIVILEGE = '42501';
/** Raised by `summon_row_required` (T3: a deferred write whose row is not there). */
const NO_DATA_FOUND = 'P0002';

/** What a person is told when a unique constraint refuses a row. */
const CONFLICTS: Record<string, string> = {
  uq_workspaces_slug: 'A workspace with this slug already exists.',
  uq_platform_bindings_external: 'This Slack team or Discord guild is already bound to another workspace.',
  uq_platform_bindings_workspace_platform: 'This workspace is already bound on that platform.',
  uq_members_nickname: 'A member with this nickname already exists in the workspace (nicknames ignore case).',
  uq_members_slack_user: 'This Slack user is already linked to another member of the workspace.',
  uq_members_discord_user: 'This Discord user is already linked to another member of the workspace.',
  uq_agents_name: 'An agent with this name already exists in the workspace (names ignore case).',
  uq_skills_name: 'A skill with this name already exists in the workspace (names ignore case).',
  uq_spaces_name: 'A space with this name already exists in the workspace (names ignore case).',
  uq_space_participants_agent: 'An agent appears twice among the participants of the space.',
  uq_space_participants_member: 'A member appears twice among the participants of the space.',
  uq_channel_bindings_channel: 'This channel is already bound to a space of another workspace.',
  uq_conversations_thread: 'This thread already has a conversation.',
  uq_guardrail_rules_scope_action: 'A guardrail rule for this scope and action already exists.',
  uq_processed_inbound_events_event: 'This platform event was already recorded.',
};

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
  message?: unknown;
}

/** TypeORM wraps the driver's error; pg's (and PGlite's, through pg) carries SQLSTATE and constraint. */
const pgFields = (error: unknown): PgErrorFields | null => {
  if (typeof error !== 'object' || error === null) return null;
  const driverError = (error as { driverError?: unknown }).driverError;
  const source = typeof driverError === 'object' && driverError !== null ? driverError : error;
  return typeof (source as PgErrorFields).code === 'string' ? (source as PgErrorFields) : null;
};

/**
 * Translates a database error into the core's vocabulary; anything else is returned unchanged.
 * The original error stays reachable as `cause`.
 */
export const translateDbError = (error: unknown): unknown => {
  if (error instanceof AppError) return error;
  const pg = pgFields(error);
  if (!pg) return error;
  const constraint = typeof pg.constraint === 'string' ? pg.constraint : '';
  const message = typeof pg.message === 'string' ? pg.message : 'database error';
  switch (pg.code) {
    case UNIQUE_VIOLATION:
      return new ConflictError(
        CONFLICTS[constraint] ?? `This would duplicate an existing row (${constraint}).`,
        {
          cause: error,
        },
      );
    case FOREIGN_KEY_VIOLATION:
      // A2: composite (id, workspace_id) keys make a reference into another workspace look like a missing row.
      // The references of conversations, messages and runs are checked at commit: there the
      // whole transaction fails with this error, not the call that wrote the reference.
      return new NotFoundError(`A referenced row does not exist in this workspace (${constraint}).`, {
        cause: error,
      });
    case CHECK_VIOLATION:
      return new ValidationError(`A value is outside what is allowed (${constraint}).`, [], { cause: error });
    case INSUFFICIENT_PRIVILEGE:
      // A2: row-level security refused a row of another workspace, or a table the tenant may not touch.
      return new AppError(`Not allowed in this workspace: ${message}`, 'forbidden', { cause: error });
    case NO_DATA_FOUND:
      return new NotFoundError(message, { cause: error });
    default:
      return error;
  }
};

/** Runs one storage call and translates its database errors. */
export const translatingDbErrors = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw translateDbError(error);
  }
};
