import type { EntityManager } from 'typeorm';
import type { RoutingKey, RoutingReadRepository, RoutingReads } from '../../../core/ports/routing-reads';
import { AgentEntity } from '../../entities/agent.entity';
import { ConversationEntity } from '../../entities/conversation.entity';
import { MemberEntity } from '../../entities/member.entity';
import { ChannelBindingEntity, SpaceEntity, SpaceParticipantEntity } from '../../entities/space.entity';
import { WorkspaceEntity } from '../../entities/workspace.entity';
import { type PreparedCall, PreparedStatement } from '../prepared-statement';
import {
  hydrateAll,
  hydrateFirst,
  queryTogether,
  textArrayLiteral,
  textLiteral,
} from '../statements-together';
import {
  askAhead,
  mayBeNamed,
  reachedByPrefixes,
  remembered,
  type TouchedBy,
  takeAhead,
} from '../transaction-read-memo';
import { type GrantRow, toAccessGrant } from './access-group-repository';
import { toAgentRecord } from './agent-repository';
import { toChannelBindingRecord } from './channel-binding-repository';
import { toConversationRecord } from './conversation-repository';
import { nicknameStarts, toMemberRecord } from './member-repository';
import { readThroughCache } from './read-through-cache';
import { routingDirectoryRead } from './routing-directory';
import { toParticipantRef, toSpaceRecord } from './space-repository';
import { CHANNEL_BOUND, CHANNEL_BOUND_IN_TEAM, MEMBERS_OF_TEAM } from './team-directory-statements';
import { toWorkspaceRecord } from './workspace-repository';

/**
 * Routing's statements, each what its repository sends on its own (same filters, same order),
 * sent together; the workspace and the bound space are found inside the statements. Prepared
 * (T3: planned once per connection), one set for each way of naming the workspace and the
 * sender; every statement of a set takes the same arguments, in the order of `routingArguments`.
 */
const routingStatements = (workspaceBy: 'slug' | 'team', platform: RoutingKey['platform']) => {
  const types = ['text', 'text', 'text', 'text', 'text', 'text'];
  const workspace =
    workspaceBy === 'slug'
      ? '(SELECT id FROM workspaces WHERE slug = $5)'
      : '(SELECT workspace_id FROM platform_bindings WHERE platform = $5 AND external_id = $6)';
  const binding = 'channel_bindings WHERE platform = $1 AND channel_id = $2';
  const boundSpace = `(SELECT space_id FROM ${binding})`;
  // P8: the terminal's sender is a nickname (M10: case ignored), Slack's and Discord's a linked
  // account, GitHub's a login (P20: case ignored).
  const senderMatch = {
    terminal: 'lower(nickname) = lower($4)',
    slack: 'slack_user_id = $4',
    discord: 'discord_user_id = $4',
    github: 'lower(github_login) = lower($4)',
  }[platform];
  return [
    `SELECT * FROM workspaces WHERE id = ${workspace}`,
    `SELECT * FROM ${binding}`,
    `SELECT * FROM spaces WHERE id = ${boundSpace} AND workspace_id = ${workspace}`,
    `SELECT * FROM members WHERE workspace_id = ${workspace} AND ${senderMatch}`,
    `SELECT * FROM agents WHERE workspace_id = ${workspace} ORDER BY created_at, seq`,
    platform === 'github'
      ? GITHUB_CONVERSATION(workspace)
      : 'SELECT * FROM conversations WHERE platform = $1 AND platform_thread_ref = $3',
    `SELECT * FROM space_participants WHERE space_id = ${boundSpace} ORDER BY position`,
    // P24: the groups that admit people, asked with the rest (one round trip).
    `SELECT platform, kind, group_id, role FROM access_groups WHERE workspace_id = ${workspace} ORDER BY position`,
  ].map((text) => new PreparedStatement(types, text));
};

/**
 * P22: a GitHub thread's conversation: a pull request an agent opened from a chat thread (its
 * comments and review threads) is that thread's conversation, in the same workspace; any other
 * issue or pull request is a conversation of its own.
 */
const GITHUB_CONVERSATION = (workspace: string) =>
  `SELECT * FROM conversations WHERE (platform = $1 AND platform_thread_ref = $3) OR id = (
     SELECT conversation_id FROM conversation_pull_requests
     WHERE workspace_id = ${workspace}
       AND ($3 = 'github:' || repo || ':' || number OR starts_with($3, 'github:' || repo || ':' || number || ':')))
   ORDER BY platform = $1 LIMIT 1`;

/**
 * M10: the workspace's members a message's mentions may reach, oldest first (M5): a nickname
 * starting with one of the folded tokens ($3), each token one range of the prefix index.
 */
const mentionableStatement = (workspaceBy: 'slug' | 'team') =>
  new PreparedStatement(
    ['text', 'text', 'text[]'],
    // The ids found first (an index range per token), then their rows by primary key: a
    // generic plan of `id IN (…)` would read the whole table to join them.
    `SELECT * FROM members WHERE id = ANY (ARRAY(
       SELECT member.id FROM unnest($3::text[]) AS token(prefix)
       JOIN members member ON member.workspace_id = ${
         workspaceBy === 'slug'
           ? '(SELECT id FROM workspaces WHERE slug = $1)'
           : '(SELECT workspace_id FROM platform_bindings WHERE platform = $1 AND external_id = $2)'
       } AND ${nicknameStarts('member.nickname', 'token.prefix')}
     )) ORDER BY created_at, seq`,
  );

const MENTIONABLE = { slug: mentionableStatement('slug'), team: mentionableStatement('team') };

const mentionableCall = (key: RoutingKey): PreparedCall =>
  'slug' in key.workspace
    ? MENTIONABLE.slug.with(textLiteral(key.workspace.slug), textLiteral(''), textArrayLiteral(key.mentioned))
    : MENTIONABLE.team.with(
        textLiteral(key.workspace.platform),
        textLiteral(key.workspace.externalId),
        textArrayLiteral(key.mentioned),
      );

const ROUTING_STATEMENTS = new Map(
  (['slug', 'team'] as const).flatMap((workspaceBy) =>
    (['terminal', 'slack', 'discord', 'github'] as const).map((platform) => [
      `${workspaceBy}:${platform}`,
      routingStatements(workspaceBy, platform),
    ]),
  ),
);

/** The arguments of every routing statement, as literals. */
const routingArguments = (key: RoutingKey): string[] => [
  textLiteral(key.platform),
  textLiteral(key.channelId),
  textLiteral(key.thread),
  textLiteral(key.senderId),
  textLiteral('slug' in key.workspace ? key.workspace.slug : key.workspace.platform),
  textLiteral('slug' in key.workspace ? '' : key.workspace.externalId),
];

const routingCalls = (key: RoutingKey) => {
  const statements = ROUTING_STATEMENTS.get(`${'slug' in key.workspace ? 'slug' : 'team'}:${key.platform}`);
  if (statements === undefined) throw new Error(`No routing statements for ${key.platform}.`);
  const args = routingArguments(key);
  return statements.map((statement) => statement.with(...args));
};

/** Every statement routing's reads prepare (`warm-connections.ts` prepares them at start). */
export const ROUTING_READ_PREPARED: readonly PreparedStatement[] = [
  ...[...ROUTING_STATEMENTS.values()].flat(),
  MENTIONABLE.slug,
  MENTIONABLE.team,
  ...Object.values(MEMBERS_OF_TEAM),
  CHANNEL_BOUND,
  CHANNEL_BOUND_IN_TEAM,
];

/** The statement of routing's set that reads the thread's conversation (not remembered: routing makes it). */
const CONVERSATION = 5;

/** A routing key's remembered part: everything but the thread, which only the conversation read uses. */
const directoryKey = (key: RoutingKey): string =>
  JSON.stringify(['routing', key.platform, key.channelId, key.senderId, key.workspace]);

type Directory = Omit<RoutingReads, 'conversation' | 'members'>;

export const routingReadRepository = (manager: EntityManager): RoutingReadRepository => ({
  // T4: the decoder's and routing's reads of the directory are remembered for the transaction
  // (`transaction-read-memo.ts`): a batch of a busy channel's rows reads them once.
  membersOfTeam(platform, teamId, named) {
    const [by, names] =
      'accounts' in named ? ([platform, named.accounts] as const) : (['nicknames', named.nicknames] as const);
    // M11: a text that names nobody reads no member.
    if (names.length === 0) return Promise.resolve([]);
    const sorted = [...new Set(names)].sort();
    return remembered(
      manager.queryRunner,
      JSON.stringify(['team-members', platform, teamId, by, sorted]),
      async () => {
        const [rows] = await queryTogether(manager, [
          MEMBERS_OF_TEAM[by].with(textLiteral(platform), textLiteral(teamId), textArrayLiteral(sorted)),
        ]);
        return hydrateAll(manager, MemberEntity, rows).map(toMemberRecord);
      },
      // P24: an admission changes it when it names the admitted account or one of their nicknames.
      by === 'nicknames'
        ? (admitted) => sorted.some((name) => mayBeNamed(admitted, name))
        : ({ account }) => sorted.includes(account),
    ).then((members) => [...members]);
  },

  channelIsBound(platform, channelId, teamId) {
    return remembered(
      manager.queryRunner,
      JSON.stringify(['bound', platform, channelId, teamId ?? null]),
      async () => {
        const [rows] = await queryTogether(manager, [
          teamId === undefined
            ? CHANNEL_BOUND.with(textLiteral(platform), textLiteral(channelId))
            : CHANNEL_BOUND_IN_TEAM.with(textLiteral(platform), textLiteral(teamId), textLiteral(channelId)),
        ]);
        return rows?.[0]?.bound === true;
      },
      // An admission binds no channel.
      () => false,
    );
  },

  read(key) {
    return takeAhead<RoutingReads>(manager.queryRunner, aheadKey(key)) ?? readNow(manager, key);
  },

  readAhead(key) {
    // Holds directory reads: forgotten when the transaction writes the directory.
    askAhead(manager.queryRunner, aheadKey(key), () => readNow(manager, key), touchedBy(key));
  },
});

/** P24: the admissions that change routing's reads of `key`: its sender's, or a member its mentions may reach. */
const touchedBy =
  (key: RoutingKey): TouchedBy =>
  (admitted) =>
    admitted.account === key.senderId || reachedByPrefixes(key.mentioned)(admitted);

/** A routing key whole, for a read asked ahead. */
const aheadKey = (key: RoutingKey): string =>
  JSON.stringify([
    'ahead',
    key.platform,
    key.workspace,
    key.channelId,
    key.thread,
    key.senderId,
    key.mentioned,
  ]);

async function readNow(manager: EntityManager, key: RoutingKey): Promise<RoutingReads> {
  const calls = routingCalls(key);
  const conversationCall = calls[CONVERSATION];
  if (conversationCall === undefined) throw new Error('No conversation statement in routing’s set.');
  // Asked in the same tick: one message when the directory is not remembered yet.
  const [directory, [conversations], members] = await Promise.all([
    remembered(
      manager.queryRunner,
      directoryKey(key),
      () =>
        readDirectory(
          manager,
          key,
          calls.filter((_, i) => i !== CONVERSATION),
        ),
      // P24: of the members, the directory holds the sender only.
      ({ account }) => account === key.senderId,
    ),
    queryTogether(manager, [conversationCall]),
    // M10: a message that mentions nobody reads no member.
    key.mentioned.length === 0
      ? []
      : remembered(
          manager.queryRunner,
          JSON.stringify(['mentionable', key.workspace, key.mentioned]),
          async () => {
            const [rows] = await queryTogether(manager, [mentionableCall(key)]);
            return hydrateAll(manager, MemberEntity, rows).map(toMemberRecord);
          },
          reachedByPrefixes(key.mentioned),
        ),
  ]);
  const conversation = hydrateFirst(manager, ConversationEntity, conversations);
  return Object.assign({}, directory, {
    agents: [...directory.agents],
    members: [...members],
    participants: [...directory.participants],
    access: [...directory.access],
    conversation: conversation && toConversationRecord(conversation),
  });
}

async function readDirectory(
  manager: EntityManager,
  key: RoutingKey,
  calls: readonly PreparedCall[],
): Promise<Directory> {
  // T7: the workspace, the channel's binding, agents and access groups from the process's cache.
  const [workspaces, bindings, spaces, senders, agents, participants, access] = await readThroughCache(
    manager,
    routingDirectoryRead(key, calls),
  );
  const workspace = hydrateFirst(manager, WorkspaceEntity, workspaces);
  const binding = hydrateFirst(manager, ChannelBindingEntity, bindings);
  const space = hydrateFirst(manager, SpaceEntity, spaces);
  const sender = hydrateFirst(manager, MemberEntity, senders);
  return {
    workspace: workspace && toWorkspaceRecord(workspace),
    binding: binding && toChannelBindingRecord(binding),
    space: space && toSpaceRecord(space),
    sender: sender && toMemberRecord(sender),
    agents: hydrateAll(manager, AgentEntity, agents).map(toAgentRecord),
    participants: hydrateAll(manager, SpaceParticipantEntity, participants).map(toParticipantRef),
    access: ((access ?? []) as unknown as GrantRow[]).map(toAccessGrant),
  };
}
