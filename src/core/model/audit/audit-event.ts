/**
 * O4: what the audit log records, a closed vocabulary: every guarded decision and every change
 * of who may do what. The database refuses any other kind (`ck_audit_events_kind`).
 */
export const AUDIT_KINDS = [
  // G4, E4: an approval card posted, and its decision (approved, denied, expired, withdrawn).
  'approval_asked',
  'approval_decided',
  // G3, G5: a push at the gateway with its rule's decision, and how it ended upstream.
  'push_decided',
  'push_finished',
  // G1, G2, E4: a tool call's guardrail decision (allow, deny, granted for the conversation).
  'tool_guarded',
  // E4: an MCP call and how it went.
  'mcp_called',
  // O3: a turn stopped or refused because a budget was used up.
  'budget_stopped',
  // P15: a person stopped a turn.
  'turn_stopped',
  // P8, P24: members and roles: an invite issued, an account linked, a member added, a role changed.
  'member_invited',
  'member_linked',
  'member_added',
  'member_role_changed',
  // R1: a paired relay: paired, revoked.
  'relay_paired',
  'relay_revoked',
  // A6: a skill installed, refused by its check, removed.
  'skill_installed',
  'skill_refused',
  'skill_removed',
  // A3: `summon apply`, with a summary of what it changed.
  'workspace_applied',
  // A routine created, changed, paused, resumed or deleted (the routines' own rules).
  'routine_changed',
  // A person signed in to the web console (the console's sign-in writes it).
  'console_signed_in',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * O4: who did it: a member (by nickname), an agent (by name), the operator at the command line
 * (or a workspace file applied), another relay, or Summon itself (an expiry, a start-up check).
 */
export const AUDIT_ACTOR_KINDS = ['member', 'agent', 'operator', 'relay', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** O4: where it was done: a chat platform, the console, GitHub, the CLI, the git gateway, `/mcp`… */
export const AUDIT_PLACES = [
  'slack',
  'discord',
  'terminal',
  'console',
  'github',
  'cli',
  'git',
  'mcp',
  'relay',
  'system',
] as const;
export type AuditPlace = (typeof AUDIT_PLACES)[number];

export interface AuditActor {
  kind: AuditActorKind;
  /** The member's or agent's id when there is one; kept as it was, never a key. */
  id: string | null;
  /** The nickname, agent name or relay name at the time; `operator` or `summon` otherwise. */
  name: string;
}

/** Plain JSON facts of the event; never a secret (`summon audit --json` prints them). */
export type AuditDetail = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

/** O4: one event to record, in the transaction of the change it records. */
export interface AuditEntry {
  kind: AuditKind;
  actor: AuditActor;
  /** What it was about, in words: `approval 1b2c… (push_to_remote)`, `member alice`. */
  subject: string;
  where: AuditPlace;
  detail?: AuditDetail;
  /** When it happened; the transaction's time when absent. */
  at?: Date;
}

/** O4: one recorded event, as the log returns it. */
export interface AuditEventRecord {
  id: string;
  workspaceId: string;
  at: Date;
  kind: AuditKind;
  actor: AuditActor;
  subject: string;
  where: AuditPlace;
  detail: AuditDetail;
}

/** O4: which events to read: all of a workspace's, or those since a moment, of a kind, by an actor. */
export interface AuditFilter {
  since?: Date;
  kind?: AuditKind;
  /** An actor's name (a member's nickname, an agent's name), without regard to case. */
  actor?: string;
}

/** O4: where a page of the log ends, to read the next one after it (keyset: time, then order written). */
export interface AuditCursor {
  /** The row's time exactly as the database keeps it (microseconds), not rounded to a `Date`. */
  at: string;
  /** Its place in the order of writing (the events of one transaction share its time). */
  seq: string;
}

export const SYSTEM_ACTOR: AuditActor = { kind: 'system', id: null, name: 'summon' };
export const OPERATOR_ACTOR: AuditActor = { kind: 'operator', id: null, name: 'operator' };
