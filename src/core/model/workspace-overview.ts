import type { AgentView } from './agent-view';
import type { ApprovalRecord } from './approvals/approval-record';
import type { UsageReportRow } from './usage/usage-report';

/** What a home screen shows a member (`commands/workspace-overview.ts` reads it). */
export interface WorkspaceOverview {
  workspaceName: string;
  /** A12, A13: every agent with its live status and presence. */
  agents: AgentView[];
  /** G4: approvals waiting for a decision, oldest first. */
  pendingApprovals: ApprovalRecord[];
  /** P1: the spaces and this platform's channels bound to each. */
  spaces: { name: string; channels: string[] }[];
  /** O3: this month's usage (UTC) by agent, the largest first. */
  usageThisMonth: UsageReportRow[];
}
