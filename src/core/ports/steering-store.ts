import type { RunRecord } from '../model/records';

/** P16: a person's message waiting to join a running turn, as the turn reads it. */
export interface SteeringMessage {
  id: string;
  runId: string;
  /** The stored message it is (its text and its author). */
  messageId: string;
  text: string;
  /** The sender's nickname in the workspace. */
  from: string;
  memberId: string | null;
  createdAt: Date;
}

/**
 * P16: the steering messages of running turns (`src/storage` keeps them in table
 * `run_steering`). Used in a workspace transaction, like the run they belong to.
 */
export interface SteeringRepository {
  /** The conversation's `running` runs, oldest first (read without a lock). */
  runningTurns(conversationId: string): Promise<RunRecord[]>;
  /**
   * The (agent, conversation) lane's `running` run, or null; the lane is locked until the
   * transaction ends (the lock `RunLaneRepository.claimNext` takes), so the run cannot end
   * between this look and what the caller adds to it.
   */
  lockRunningTurn(agentId: string, conversationId: string): Promise<RunRecord | null>;
  add(workspaceId: string, fields: { runId: string; messageId: string; at: Date }): Promise<void>;
  /** The run's messages not yet taken nor queued, oldest first. */
  pending(runId: string): Promise<SteeringMessage[]>;
  /** They joined the turn (at the boundary whose checkpoint is written in this transaction). */
  markTaken(ids: readonly string[], at: Date): Promise<void>;
  /**
   * The run ended: its pending messages marked queued, each with a queued run of its own (a
   * person's run, `queuedRun`), oldest first; their ids. Takes the run's lane lock first, so no
   * message is added to the run after this.
   */
  queueLeftovers(
    run: Pick<RunRecord, 'id' | 'workspaceId' | 'agentId' | 'conversationId'>,
    at: Date,
  ): Promise<string[]>;
}
