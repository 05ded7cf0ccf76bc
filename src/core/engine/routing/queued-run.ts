import type { RunRecord } from '../../model/records';
import type { NewRun } from '../../ports/store';

/**
 * What started a run, which fixes its place in a wake chain (M20): a person's message starts
 * depth 1 with the woken agent alone in the chain; an agent (a reply's mention, a hand-off) or
 * a paired relay's agent (R3, counted across relays) hands on the chain and depth it planned.
 */
export type RunStart =
  | { by: 'person'; memberId: string | null }
  | { by: 'agent'; agentId: string; wakeChain: readonly string[]; depth: number }
  | { by: 'relay'; wakeChain: readonly string[]; depth: number };

/** Which agent a run is for, where, and the message that woke it. */
export interface QueuedRunTarget {
  workspaceId: string;
  agentId: string;
  conversationId: string;
  triggerMessageId: string;
  createdAt: Date;
}

/**
 * A new run, `queued` and alive, not started: the one shape every waking path stores (T2: the
 * stored row, not the queue's job, is the run's record, so recovery finds it if the wake is lost).
 */
export function queuedRun(target: QueuedRunTarget, start: RunStart): NewRun {
  return {
    workspaceId: target.workspaceId,
    agentId: target.agentId,
    conversationId: target.conversationId,
    triggerMessageId: target.triggerMessageId,
    status: 'queued',
    liveness: 'ok',
    wakeChain: start.by === 'person' ? [target.agentId] : [...start.wakeChain],
    depth: start.by === 'person' ? 1 : start.depth,
    startedByMemberId: start.by === 'person' ? start.memberId : null,
    startedByAgentId: start.by === 'agent' ? start.agentId : null,
    startedAt: null,
    finishedAt: null,
    lastEventAt: null,
    error: null,
    createdAt: target.createdAt,
  };
}

/** T3: the same run claimed as it is stored (`running` from `now`, as a claim would mark it), whole. */
export function claimedRun(run: NewRun & { id: string }, now: Date): RunRecord {
  return Object.assign({}, run, {
    status: 'running',
    startedAt: now,
    lastEventAt: now,
    createdAt: run.createdAt ?? now,
    statusCardRef: null,
    replyMessageId: null,
  } satisfies Partial<RunRecord>);
}
