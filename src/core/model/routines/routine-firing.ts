/**
 * W2, W3, W4: how one firing of a routine went, as its history shows it. `claimed`: stored, its
 * thread not posted yet; `started`: its run is queued (the run tells the rest); `skipped`: W3's
 * `skip` after downtime; `failed`: it could not start (`reason` says why); `over_budget`: W4.
 */
export const FIRING_OUTCOMES = ['claimed', 'started', 'skipped', 'failed', 'over_budget'] as const;
export type FiringOutcome = (typeof FIRING_OUTCOMES)[number];

/** W2: a firing as stored: one per (routine, scheduled time). */
export interface RoutineFiring {
  id: string;
  workspaceId: string;
  routineId: string;
  scheduledFor: Date;
  firedAt: Date;
  /** W3: the scheduled times a downtime passed, this one included; empty for an on-time firing. */
  missed: Date[];
  outcome: FiringOutcome;
  reason: string | null;
  conversationId: string | null;
  runId: string | null;
  /** W5, W1: the webhook's `X-Summon-Delivery` or GitHub's `X-GitHub-Delivery`; null for a time. */
  deliveryId: string | null;
}

/** W2: a firing with how its run went and the reply's platform reference once posted. */
export interface FiringHistoryEntry extends RoutineFiring {
  runStatus: string | null;
  replyRef: string | null;
}
