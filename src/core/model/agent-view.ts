import type { AgentRecord } from './records';
import type { AgentLiveStatus } from './run';

/**
 * A13: presence, a coarser live picture than A12's live status: the model is `thinking`, a
 * tool call is `running`, a call is `blockedOnApproval`, or the agent is `done`
 * (`agents/presence.ts` derives it).
 */
export const AGENT_PRESENCES = ['thinking', 'running', 'blockedOnApproval', 'done'] as const;
export type AgentPresence = (typeof AGENT_PRESENCES)[number];

/** An agent of the roster with its live status (A12) and presence (A13). */
export interface AgentView {
  agent: AgentRecord;
  reportsTo: string | null;
  status: AgentLiveStatus;
  /** A13: thinking, running, blocked on approval, done; null when it never ran. */
  presence: AgentPresence | null;
  lastRunAt: Date | null;
}
