import { PreparedStatement } from '../prepared-statement';

/** The inbox decoders' reads (`routingReadRepository`): the workspace a team or guild is bound to ($1: the platform, $2: the team), as a subquery. */
export const TEAM_WORKSPACE =
  '(SELECT workspace_id FROM platform_bindings WHERE platform = $1 AND external_id = $2)';

/**
 * M11, P8: the members of the team's workspace a text names: by the accounts its mentions carry
 * (inbound `<@U…>`), or by the nicknames it writes (outbound `@nickname`, M10: case ignored),
 * each one probe of a unique index; never the whole team.
 */
export const MEMBERS_OF_TEAM = {
  slack: new PreparedStatement(
    ['text', 'text', 'text[]'],
    `SELECT * FROM members WHERE workspace_id = ${TEAM_WORKSPACE} AND slack_user_id = ANY ($3::text[])
     ORDER BY created_at, seq`,
  ),
  discord: new PreparedStatement(
    ['text', 'text', 'text[]'],
    `SELECT * FROM members WHERE workspace_id = ${TEAM_WORKSPACE} AND discord_user_id = ANY ($3::text[])
     ORDER BY created_at, seq`,
  ),
  nicknames: new PreparedStatement(
    ['text', 'text', 'text[]'],
    `SELECT * FROM members WHERE workspace_id = ${TEAM_WORKSPACE}
       AND lower(nickname) = ANY (ARRAY(SELECT lower(n) FROM unnest($3::text[]) AS n))
     ORDER BY created_at, seq`,
  ),
};
export const CHANNEL_BOUND = new PreparedStatement(
  ['text', 'text'],
  'SELECT EXISTS (SELECT 1 FROM channel_bindings WHERE platform = $1 AND channel_id = $2) AS bound',
);
export const CHANNEL_BOUND_IN_TEAM = new PreparedStatement(
  ['text', 'text', 'text'],
  `SELECT EXISTS (SELECT 1 FROM channel_bindings
     WHERE platform = $1 AND channel_id = $3 AND workspace_id = ${TEAM_WORKSPACE}) AS bound`,
);
