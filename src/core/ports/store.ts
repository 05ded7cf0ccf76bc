import type { GuardrailAction, GuardrailDecision, GuardrailScopeKind } from '../model/guardrail';
import type { InboxEntry } from '../model/inbox';
import type { MemberRole } from '../model/member';
import type { NicknameOffer } from '../model/members/nickname-offer';
import type { BindablePlatform, Platform } from '../model/platform';
import type {
  AgentFields,
  AgentRecord,
  ChannelBindingRecord,
  GuardrailRuleRecord,
  MemberRecord,
  ParticipantRef,
  PlatformBindingRecord,
  RunRecord,
  SkillRecord,
  SpaceFields,
  SpaceRecord,
  WorkspaceRecord,
} from '../model/records';
import type { Budget } from '../model/usage/budget';
import type { AccessGroupRepository } from './access-group-store';
import type { ApprovalRepository } from './approval-store';
import type { AuditRepository } from './audit-store';
import type { ChannelCursorRepository } from './channel-cursor-store';
import type { ConsoleSessionRepository } from './console-session-store';
import type { ConversationRepository, MessageRepository, RunLaneRepository } from './conversation-store';
import type { GitCredentialRepository, GitPushRepository } from './git-gateway-store';
import type { InboxRepository } from './inbox-store';
import type { MemberInviteRepository } from './invite-store';
import type { McpCallRepository, McpGrantRepository } from './mcp-guard-store';
import type { McpOAuthRepository } from './mcp-oauth-store';
import type { McpServerRepository } from './mcp-server-store';
import type { MemberTokenRepository } from './member-token-store';
import type { OutboxRepository } from './outbox-store';
import type { PullRequestRepository } from './pull-request-store';
import type { QuestionRepository } from './question-store';
import type { RelayRepository } from './relay-store';
import type { RoutineRepository } from './routine-store';
import type { RoutingReadRepository } from './routing-reads';
import type { RunCheckpoints } from './run-checkpoints';
import type { SteeringRepository } from './steering-store';
import type { TurnReadRepository } from './turn-reads';
import type { UsageRepository } from './usage-store';

/**
 * The store port: the only way the core reaches persistent state. Every call runs inside a
 * transaction handed out by `Store`; `src/storage` implements it with TypeORM.
 */
export interface Store {
  /** A transaction with the system's view of every workspace (migrations, apply, bindings). */
  transaction<T>(work: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * A transaction scoped to one workspace: PostgreSQL row-level security hides every other
   * workspace's rows from it (A2).
   */
  inWorkspace<T>(workspaceId: string, work: (tx: StoreTx) => Promise<T>): Promise<T>;
  /**
   * T4: `InboxRepository.add` as one statement of its own, with no transaction around it (one
   * round trip: what a front end waits for before it acknowledges). True when it stored the event.
   */
  addToInbox(entry: InboxEntry): Promise<boolean>;
  /**
   * T3: readies what a busy process uses (PostgreSQL: its connections opened and their hot
   * statements prepared), so the first burst after a start costs what steady traffic does.
   * Never fails: what could not be readied is logged and readied by its first use.
   */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreTx {
  readonly workspaces: WorkspaceRepository;
  readonly platformBindings: PlatformBindingRepository;
  readonly members: MemberRepository;
  readonly agents: AgentRepository;
  readonly skills: SkillRepository;
  readonly spaces: SpaceRepository;
  readonly channelBindings: ChannelBindingRepository;
  readonly guardrails: GuardrailRuleRepository;
  readonly runs: RunRepository & RunLaneRepository;
  readonly conversations: ConversationRepository;
  readonly messages: MessageRepository;
  readonly approvals: ApprovalRepository;
  readonly questions: QuestionRepository;
  readonly processedEvents: ProcessedEventRepository;
  /** G3, G5: the git gateway's per-run credentials and pushes (`git-gateway-store.ts`). */
  readonly gitCredentials: GitCredentialRepository;
  readonly gitPushes: GitPushRepository;
  /** P7: outgoing platform calls (system context). */
  readonly outbox: OutboxRepository;
  /** P8: one-time codes that link a platform account to a member. */
  readonly memberInvites: MemberInviteRepository;
  /** E6: members' personal tokens for `/mcp`, stored hashed. */
  readonly memberTokens: MemberTokenRepository;
  /** O5: the web console's sessions and one-time sign-in links, stored hashed. */
  readonly consoleSessions: ConsoleSessionRepository;
  readonly channelCursors: ChannelCursorRepository;
  /** T4: inbound events stored before they are acknowledged, routed from here (system context). */
  readonly inbox: InboxRepository;
  /** T2: each built-in runner's turn at its last tool boundary (`run-checkpoints.ts`). */
  readonly checkpoints: RunCheckpoints;
  /** P16: people's messages waiting to join a running turn (`steering-store.ts`). */
  readonly steering: SteeringRepository;
  /** O3: token usage and cost per run, and what budgets count. */
  readonly usage: UsageRepository;
  /** R1: paired relays: keys, offers, pairings, nonces, the workspace's relay settings. */
  readonly relays: RelayRepository;
  /** T3: what a claimed turn reads at its start, in one round trip (`turn-reads.ts`). */
  readonly turnReads: TurnReadRepository;
  /** T3, T4: what routing a person's message reads, in one round trip (`routing-reads.ts`). */
  readonly routingReads: RoutingReadRepository;
  /** P22, P23: pull requests agents opened, on their conversations (`pull-request-store.ts`). */
  readonly pullRequests: PullRequestRepository;
  /** E4: MCP calls approved for a whole conversation (`mcp-guard-store.ts`). */
  readonly mcpGrants: McpGrantRepository;
  /** E4, O4: every MCP call a run made, and how it was decided. */
  readonly mcpCalls: McpCallRepository;
  /** E1: the MCP servers the workspace declares and who is given which (`mcp-server-store.ts`). */
  readonly mcpServers: McpServerRepository;
  /** E5: remote MCP servers' OAuth: client registrations, tokens, pending links (`mcp-oauth-store.ts`). */
  readonly mcpOAuth: McpOAuthRepository;
  /** P24: the platform groups that admit people, and the role each gives (`access-group-store.ts`). */
  readonly accessGroups: AccessGroupRepository;
  /** O4: the audit log, written in the transaction of the change it records (`audit-store.ts`). */
  readonly audit: AuditRepository;
  /** W1, W2: the spaces' routines (`routine-store.ts`). */
  readonly routines: RoutineRepository;
  /**
   * T3: the statements issued from now until the transaction's next message goes (those of
   * this tick, calls made together) are its last: the COMMIT goes in that message, one round
   * trip fewer. For work whose code after that message's answer is in memory only: a statement
   * issued after it throws (what was committed stays, and the transaction then fails with
   * `FailedAfterCommitError`); a statement that fails in it fails the transaction, nothing
   * committed. T2: from the moment it is sent, a lost connection may have committed it.
   */
  commitWithNextMessage(): void;
}

export interface WorkspaceRepository {
  list(): Promise<WorkspaceRecord[]>;
  findBySlug(slug: string): Promise<WorkspaceRecord | null>;
  findById(id: string): Promise<WorkspaceRecord | null>;
  insert(fields: { slug: string; name: string }): Promise<WorkspaceRecord>;
  rename(id: string, name: string): Promise<void>;
  /** X2: replaces the workspace's `sandbox.allowedDomains`. */
  setAllowedDomains(id: string, allowedDomains: readonly string[]): Promise<void>;
  /** O3: replaces the workspace's `budgets`. */
  setBudgets(id: string, budgets: readonly Budget[]): Promise<void>;
}

export interface PlatformBindingRepository {
  listForWorkspace(workspaceId: string): Promise<PlatformBindingRecord[]>;
  find(platform: BindablePlatform, externalId: string): Promise<PlatformBindingRecord | null>;
  /** Binds the team/guild to the workspace; replaces the workspace's earlier binding on that platform. */
  bind(workspaceId: string, platform: BindablePlatform, externalId: string): Promise<PlatformBindingRecord>;
}

export interface MemberRepository {
  /** Ordered by creation. */
  list(workspaceId: string): Promise<MemberRecord[]>;
  findByNickname(workspaceId: string, nickname: string): Promise<MemberRecord | null>;
  /** M10, M11: the members holding one of `nicknames` (case ignored), oldest first; none for none. */
  named(workspaceId: string, nicknames: readonly string[]): Promise<MemberRecord[]>;
  /** P8, P20: the member a Slack or Discord account, or a GitHub login, belongs to. */
  findByPlatformUser(
    workspaceId: string,
    platform: BindablePlatform | 'github',
    userId: string,
  ): Promise<MemberRecord | null>;
  insert(
    workspaceId: string,
    fields: Pick<
      MemberRecord,
      'nickname' | 'role' | 'slackUserId' | 'discordUserId' | 'githubLogin' | 'accessVia' | 'accessViaName'
    >,
  ): Promise<MemberRecord>;
  /**
   * P24, M10: an admitted person's member record with id `fields.id`, made with the
   * transaction's next message (T3: owed, no round trip of its own) under the first nickname
   * `offered` gives no member has, case ignored (one made of the id when all are taken); a record
   * another transaction made meanwhile under the same id stands. Read the record back for the
   * nickname it got.
   */
  admitOwed(
    workspaceId: string,
    fields: Pick<
      MemberRecord,
      'id' | 'role' | 'slackUserId' | 'discordUserId' | 'accessVia' | 'accessViaName'
    >,
    offered: NicknameOffer,
  ): Promise<void>;
  update(
    id: string,
    patch: Partial<
      Pick<
        MemberRecord,
        'role' | 'slackUserId' | 'discordUserId' | 'githubLogin' | 'accessVia' | 'accessViaName'
      >
    >,
  ): Promise<void>;
}

export interface AgentRepository {
  /** Ordered by creation (M5's deterministic tie-break relies on it). */
  list(workspaceId: string): Promise<AgentRecord[]>;
  findByName(workspaceId: string, name: string): Promise<AgentRecord | null>;
  insert(workspaceId: string, fields: AgentFields): Promise<AgentRecord>;
  update(id: string, patch: Partial<AgentFields>): Promise<void>;
}

export interface SkillRepository {
  list(workspaceId: string): Promise<SkillRecord[]>;
  findByName(workspaceId: string, name: string): Promise<SkillRecord | null>;
  insert(
    workspaceId: string,
    fields: Pick<SkillRecord, 'name' | 'description' | 'body'>,
  ): Promise<SkillRecord>;
  update(id: string, patch: Partial<Pick<SkillRecord, 'description' | 'body'>>): Promise<void>;
  /** A6: `summon skills remove`, or an installed skill refused at start. */
  remove(id: string): Promise<void>;
}

export interface SpaceRepository {
  list(workspaceId: string): Promise<SpaceRecord[]>;
  findByName(workspaceId: string, name: string): Promise<SpaceRecord | null>;
  insert(workspaceId: string, fields: SpaceFields): Promise<SpaceRecord>;
  update(id: string, patch: Partial<SpaceFields>): Promise<void>;
  /** Ordered as they were set. */
  listParticipants(spaceId: string): Promise<ParticipantRef[]>;
  /** Replaces the participant list with exactly these, in this order. */
  setParticipants(spaceId: string, participants: ParticipantRef[]): Promise<void>;
  /** M2: adds one participant at the end; nothing happens when it already is one. Returns whether it was added. */
  addParticipant(spaceId: string, participant: ParticipantRef): Promise<boolean>;
}

export interface ChannelBindingRepository {
  listForWorkspace(workspaceId: string): Promise<ChannelBindingRecord[]>;
  find(platform: Platform, channelId: string): Promise<ChannelBindingRecord | null>;
  /** Binds the channel to the space, moving it if it was bound elsewhere in the same workspace. */
  bind(spaceId: string, platform: Platform, channelId: string): Promise<ChannelBindingRecord>;
  /** Keeps only these channels bound to the space. */
  unbindOthers(spaceId: string, keep: { platform: Platform; channelId: string }[]): Promise<void>;
}

export interface GuardrailRuleRepository {
  list(workspaceId: string): Promise<GuardrailRuleRecord[]>;
  /** One rule per (scope, action, tool): inserting again replaces the decision. */
  upsert(
    workspaceId: string,
    rule: {
      scopeKind: GuardrailScopeKind;
      scopeId: string | null;
      action: GuardrailAction;
      decision: GuardrailDecision;
      /** E4: only for `mcp`: `<server>__<tool>` or `<server>__*`; absent or null: every tool. */
      tool?: string | null;
    },
  ): Promise<GuardrailRuleRecord>;
}

export interface RunRepository {
  /** The runs of the given agents that matter for their live status (A12), newest first. */
  recentForAgents(workspaceId: string, agentIds: string[], perAgent: number): Promise<RunRecord[]>;
  insert(run: NewRun): Promise<RunRecord>;
  /**
   * T3: `insert` with the id the caller made, sent with the transaction's next statement (at the
   * latest its commit) and not read back; a run the database refuses (a foreign key, a
   * constraint) fails the transaction then.
   */
  insertOwed(run: NewRun & { id: string }): Promise<void>;
}

/** A run to insert: what is not given takes its default. */
export type NewRun = Omit<RunRecord, 'id' | 'createdAt' | 'statusCardRef' | 'replyMessageId'> & {
  createdAt?: Date;
  statusCardRef?: string | null;
  replyMessageId?: string | null;
};

/**
 * P6/P11: de-duplication of inbound platform events (Slack retries, Discord replays, back-fill).
 * Not owned by a workspace: use it in `Store.transaction`, before the event is resolved to one.
 */
export interface ProcessedEventRepository {
  /** Records the event; true the first time, false when it was already recorded. */
  record(platform: Platform, eventId: string): Promise<boolean>;
  /**
   * T3, T4: records the event now, with whatever the transaction sends next (an inbox batch's
   * rows, with its first row's reads); this transaction's next `record` of it gets the answer.
   */
  recordAhead(platform: Platform, eventId: string): void;
  /**
   * P6, T4: an event recorded ahead (`recordAhead`) that its decoder then dropped: the record is
   * taken back if this transaction made it (a dropped event is not a processed one), with the
   * transaction's next message; an event recorded before stays recorded.
   */
  forgetAhead(platform: Platform, eventId: string): Promise<void>;
}

export type { MemberRole };
