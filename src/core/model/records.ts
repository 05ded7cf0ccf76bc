import type { AdapterId } from './agent';
import type { GuardrailAction, GuardrailDecision, GuardrailScopeKind } from './guardrail';
import type { MemberRole } from './member';
import type { BindablePlatform, Platform } from './platform';
import type { RunLiveness, RunStatus } from './run';
import type { Autonomy, SpaceMode, WhileRunning } from './space';
import type { Budget } from './usage/budget';

/**
 * Plain records the store hands to the core. They carry no ORM behaviour; storage maps
 * its rows to and from these shapes. Every record that belongs to a workspace carries its
 * `workspaceId` (A2).
 */
export interface WorkspaceRecord {
  id: string;
  slug: string;
  name: string;
  /** X2: hosts the egress proxy may reach (`sandbox.allowedDomains`; exact or `*.` wildcard). */
  allowedDomains: string[];
  /** O3: the workspace file's spending limits (workspace, space or agent; tokens or dollars). */
  budgets: Budget[];
  createdAt: Date;
}

/** P1: a Slack team or a Discord guild bound to exactly one workspace. */
export interface PlatformBindingRecord {
  id: string;
  workspaceId: string;
  platform: BindablePlatform;
  externalId: string;
}

export interface MemberRecord {
  id: string;
  workspaceId: string;
  nickname: string;
  role: MemberRole;
  slackUserId: string | null;
  discordUserId: string | null;
  /**
   * P24: the group that admitted this person (`accessGroupKey`), when no explicit entry did;
   * null or absent for an explicit member (the workspace file, an invite).
   */
  accessVia?: string | null;
  /** P24: that group's name as the platform gave it (a Discord role's, a Slack handle). */
  accessViaName?: string | null;
  /** P20: the member's GitHub login (case-insensitive); the store always reads it, null when none. */
  githubLogin?: string | null;
  createdAt: Date;
}

/** A4: every attribute of an agent. `adapterId: null` is the built-in loop (A10). */
export interface AgentRecord {
  id: string;
  workspaceId: string;
  name: string;
  title: string;
  persona: string;
  systemPrompt: string | null;
  skills: string[];
  adapterId: AdapterId | null;
  modelId: string | null;
  effort: string | null;
  contextSize: number | null;
  silenceTimeoutMinutes: number;
  reportsToId: string | null;
  avatarUrl: string | null;
  command: string | null;
  createdAt: Date;
}

export type AgentFields = Omit<AgentRecord, 'id' | 'workspaceId' | 'createdAt'>;

export interface SkillRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  body: string;
  createdAt: Date;
}

export interface SpaceRecord {
  id: string;
  workspaceId: string;
  name: string;
  context: string;
  mode: SpaceMode;
  autonomy: Autonomy;
  dedicated: boolean;
  /** P16: a person's message while an agent's built-in turn runs here steers it, or queues a turn. */
  whileRunning: WhileRunning;
  repos: string[];
  createdAt: Date;
}

export type SpaceFields = Omit<SpaceRecord, 'id' | 'workspaceId' | 'createdAt'>;

/** A participant is an agent or a member, never both. */
export type ParticipantRef = { kind: 'agent'; agentId: string } | { kind: 'member'; memberId: string };

export interface ChannelBindingRecord {
  id: string;
  workspaceId: string;
  spaceId: string;
  platform: Platform;
  channelId: string;
}

/** G1: `scopeId` is the agent or space id; null for a workspace-wide rule. */
export interface GuardrailRuleRecord {
  id: string;
  workspaceId: string;
  scopeKind: GuardrailScopeKind;
  scopeId: string | null;
  action: GuardrailAction;
  decision: GuardrailDecision;
  /**
   * E4: only for action `mcp`: the tool the rule is narrowed to, an exact `<server>__<tool>` or
   * a server's wildcard `<server>__*`; null: every tool.
   */
  tool: string | null;
}

export interface RunRecord {
  id: string;
  workspaceId: string;
  agentId: string;
  conversationId: string;
  triggerMessageId: string | null;
  status: RunStatus;
  liveness: RunLiveness;
  /** M20: agent ids of the wake chain that led to this run, oldest first. */
  wakeChain: string[];
  depth: number;
  startedByMemberId: string | null;
  startedByAgentId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  lastEventAt: Date | null;
  error: string | null;
  /** P9: the platform ref of the run's status card, so it can be edited after a restart. */
  statusCardRef: string | null;
  /** The agent's reply message, once posted. */
  replyMessageId: string | null;
}
