import type { ToolCall, ToolOutcome } from './turn-tools';

/**
 * T2: where a built-in runner's turn stands at a tool boundary, enough to go on after a crash
 * or a restart without the process that ran it. The transcript is the runner's own model-API
 * messages (JSON as sent), so only a runner of the same `format` can resume it.
 */
export interface TurnCheckpoint {
  /** Which runner wrote it (`anthropic`, `openai`); another one cannot read the transcript. */
  format: string;
  /** The finished tool exchanges of the turn, oldest first, in the model API's message shape. */
  exchanges: unknown[][];
  /** The round of tool calls in progress; null between rounds (the model is asked next). */
  round: TurnCheckpointRound | null;
  /** Rounds of tool calls so far (the runaway guard counts on after a resume). */
  rounds: number;
  /** A9: the completion contract's one nudge was sent already. */
  nudged: boolean;
  /**
   * A15: the model's summary of the rounds compacted away (`exchanges` then holds only the
   * rounds after them); absent while the turn was never compacted.
   */
  summary?: string;
  /**
   * P16: the steering messages that joined `exchanges` at this boundary: the engine marks them
   * taken in the checkpoint's own transaction (not stored with the checkpoint).
   */
  steered?: string[];
  /**
   * The turn's system prompt and prompt as first composed (added by the engine, not the
   * runner), so that a resumed turn is asked the same, though its thread has moved on.
   */
  prompt?: { system: string; prompt: string };
}

export interface TurnCheckpointRound {
  /** The assistant message that made the calls, as the model API sent it. */
  assistant: unknown;
  /** `inputError`: the input did not parse; the call is answered with that sentence, not run. */
  calls: (ToolCall & { inputError?: string })[];
  /** The outcomes of `calls`, in order, as far as they are known. */
  outcomes: ToolOutcome[];
  /**
   * `calls[outcomes.length]` had been handed to the tools when this was written: after a crash
   * it may have run, partly or wholly, so it is reported as interrupted, never run again
   * (unless it was still waiting for its approval: see `RunCheckpointRecord.approvalId`).
   */
  inFlight: boolean;
}

/**
 * T2, A9: what the in-flight call of a checkpointed turn waits on besides an approval: a
 * question card (`ask_question`) or another agent's run (`ask_agent`, `delegate_task`), until
 * `until` (null: no end). The call's result is read from what it waits on, so a resumed turn
 * waits on the same one instead of asking again.
 */
export interface CheckpointAwait {
  kind: 'question' | 'run';
  id: string;
  until: Date | null;
}

/** One run's stored checkpoint (one row per run, replaced at each boundary). */
export interface RunCheckpointRecord {
  runId: string;
  workspaceId: string;
  checkpoint: TurnCheckpoint;
  /** Boundaries written so far (1 = the turn's start). */
  step: number;
  /** P9: the run's status card, edited again by whichever worker resumes it. */
  statusCardRef: string | null;
  /**
   * G4, T2: the approval the in-flight call waits for, before it runs; cleared once the wait
   * ends. While set, the call has not run, so a resumed turn waits on it again.
   */
  approvalId: string | null;
  /** T2, A9: what the in-flight call waits on besides an approval; cleared at the next boundary. */
  awaits: CheckpointAwait | null;
  /**
   * T2: set when no process holds the turn (its worker died while it waited on `approvalId`
   * or `awaits`).
   */
  parkedAt: Date | null;
  updatedAt: Date;
}

/**
 * T2: the port the engine's checkpoints go through (`src/storage` keeps them in PostgreSQL or
 * PGlite, table `run_checkpoints`). Used in a workspace transaction, like the run it belongs to.
 */
export interface RunCheckpoints {
  find(runId: string): Promise<RunCheckpointRecord | null>;
  /** Replaces the run's checkpoint; `approvalId`, `awaits` and `parkedAt` are cleared (a new boundary). */
  save(
    workspaceId: string,
    fields: { runId: string; checkpoint: TurnCheckpoint; statusCardRef: string | null; at: Date },
  ): Promise<void>;
  /** G4: the in-flight call now waits on `approvalId` (null: the wait ended). No row: nothing. */
  setApproval(runId: string, approvalId: string | null): Promise<void>;
  /**
   * T2, A9: the in-flight call now waits on `awaits` (null: nothing); false when the run has no
   * checkpoint (a CLI agent's turn, which cannot be resumed).
   */
  setAwaits(runId: string, awaits: CheckpointAwait | null): Promise<boolean>;
  /**
   * T2: marks the turn parked on its approval or what it awaits (no process holds it); false
   * when the row waits on nothing, or is parked already.
   */
  park(runId: string, at: Date): Promise<boolean>;
  /**
   * T2: takes a parked turn back for resuming, if it is parked on `waitedOn` (an approval's,
   * question's or run's id; anything when absent); false when it was not (a live worker holds
   * it, or another process took it).
   */
  unpark(runId: string, waitedOn?: string): Promise<boolean>;
  /** T2, A9: the runs whose turn is parked waiting for run `runId` to end (ask_agent, delegate_task). */
  listParkedAwaitingRun(runId: string): Promise<string[]>;
  /**
   * A13: of `runIds`, those whose checkpoint has a tool call handed to the tools and not yet
   * reported back (presence across workers).
   */
  listCallsInFlight(runIds: readonly string[]): Promise<string[]>;
  /** The run's checkpoint ends with it (the turn finished or failed); T3: sent with the next statement. */
  remove(runId: string): Promise<void>;
}
