import type { ApprovalVerdict } from '../model/approvals/approval';
import type { MemberRecord, WorkspaceRecord } from '../model/records';
import type { UsageGrouping, UsageReportRow } from '../model/usage/usage-report';

/** E6: who an MCP request speaks for: the member its personal token belongs to, as of this request. */
export interface McpCaller {
  workspace: WorkspaceRecord;
  member: MemberRecord;
}

/** E6: a space the member may reach: bound to a channel, and not another person's direct space. */
export interface ReachableSpace {
  name: string;
  context: string;
  /** Where its conversations show (`slack`, `discord`, `terminal`). */
  platforms: string[];
  /** The agents taking part, by name. */
  agents: string[];
}

export interface AgentSummary {
  name: string;
  title: string;
  /** The spaces (of those the member may reach) the agent takes part in. */
  spaces: string[];
}

/** E6: what `ask_agent` ends with: the agent's reply, or where the turn goes on. */
export type AskOutcome =
  | { kind: 'replied'; agent: string; reply: string; thread: string }
  | { kind: 'failed'; agent: string; reason: string; thread: string }
  | { kind: 'still-working'; agent: string; thread: string };

export interface PendingApproval {
  approvalId: string;
  action: string;
  summary: string;
  details: string[];
  space: string | null;
  agent: string | null;
  requestedAt: string;
  expiresAt: string;
}

export interface UsageSummary {
  workspace: string;
  since: string;
  by: UsageGrouping;
  rows: UsageReportRow[];
}

/**
 * E6: what Summon's MCP endpoint offers a member, in the core's terms; the adapter speaks MCP.
 * A refusal (a viewer asking, a plain member deciding, an unknown space) is thrown as an
 * `AppError` whose message is the sentence to show.
 */
export interface MemberTools {
  /** The member a bearer token speaks for; null when it is malformed, unknown or revoked. */
  authenticate(token: string): Promise<McpCaller | null>;
  listSpaces(caller: McpCaller): Promise<ReachableSpace[]>;
  listAgents(caller: McpCaller, request: { space?: string | undefined }): Promise<AgentSummary[]>;
  /** A turn like a chat mention by the member; `signal` stops the waiting, never the turn. */
  askAgent(
    caller: McpCaller,
    request: { space: string; agent: string; prompt: string },
    signal: AbortSignal,
  ): Promise<AskOutcome>;
  listApprovals(caller: McpCaller): Promise<PendingApproval[]>;
  decideApproval(
    caller: McpCaller,
    /** E4: `approve-conversation` approves an MCP call and the same call again in its conversation. */
    request: { approvalId: string; verdict: ApprovalVerdict },
  ): Promise<{ approvalId: string; status: string }>;
  usage(
    caller: McpCaller,
    request: { by?: UsageGrouping | undefined; since?: string | undefined },
  ): Promise<UsageSummary>;
}
