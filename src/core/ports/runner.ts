import type { ImageInput } from '../model/attachment';
import type { AgentRecord } from '../model/records';
import type { TokenUsage } from '../model/usage/token-usage';
import type { TurnCheckpoint } from './run-checkpoints';
import type { TurnTools } from './turn-tools';

/**
 * What a runner reports while a turn works. The engine turns these into status-card rows
 * (P9), liveness (A12: silence and loops) and finally the reply.
 */
export type RunnerEvent =
  | { type: 'thinking' }
  | { type: 'text'; delta: string }
  | { type: 'tool_start'; callId: string; tool: string; summary: string }
  | { type: 'tool_end'; callId: string; ok: boolean; summary?: string }
  /**
   * O3: one model call's token usage, reported once the call's response is in (before the
   * runner goes on: the engine may stop the turn here, between model calls, for a budget).
   * `costUsd` when the model's provider reported it (Claude Code); else the price table decides.
   */
  | { type: 'usage'; model: string; usage: TokenUsage; costUsd?: number }
  /** P16, N10: a person's message joined the turn at this tool boundary (shown as part of it). */
  | { type: 'steered'; from: string; text: string }
  /** A15: the turn outgrew its context: its `rounds` oldest rounds were replaced by a summary. */
  | { type: 'compacted'; rounds: number }
  | { type: 'final'; text: string }
  | { type: 'error'; message: string };

export interface RunnerRequest {
  runId: string;
  agent: AgentRecord;
  /** The composed system prompt and the turn's prompt (src/core/prompt). */
  system: string;
  prompt: string;
  /** P13: images attached to the turn's message, given only to a runner that `takesImages`. */
  images?: readonly ImageInput[];
  /** The agent's working directory (its folder in the data directory). */
  workingDir: string;
  /** G3: added to the environment of the run's processes (the per-run git configuration). */
  env?: Readonly<Record<string, string>>;
  /** M9, X1: the folders `workingDir` links into (the space's checkouts): visible to the run's processes. */
  linkedRoots?: readonly string[];
  /** A9: the tools this turn may use, already filtered by the space mode and guardrail-checked. */
  tools: TurnTools;
  /** Aborted when the turn is stopped, the watchdog gives up or the worker shuts down. */
  signal: AbortSignal;
  /**
   * T2: a runner that can be resumed calls this at the turn's start and at every tool boundary
   * (before each call is handed to the tools, after each round) and waits for it: the state is
   * durable before the call runs. A rejection ends the turn (a call must not run unrecorded).
   */
  checkpoint?: (state: TurnCheckpoint) => Promise<void>;
  /** T2: go on from this checkpoint (the turn's earlier exchanges) instead of starting afresh. */
  resumeFrom?: TurnCheckpoint;
  /**
   * P16: people's messages that arrived while the turn runs; a runner that `takesSteering`
   * reads them at each tool boundary and puts them in that boundary's checkpoint (`steered`).
   */
  steering?: SteeringFeed;
}

/** P16: a person's message for the running turn, in the words the model is given. */
export interface SteeringInput {
  id: string;
  from: string;
  text: string;
}

/** P16: where a runner finds the steering messages of its turn. */
export interface SteeringFeed {
  /** The messages not yet taken, oldest first (none when nothing was announced since the last look). */
  pending(): Promise<SteeringInput[]>;
}

/**
 * The runner port (A9, A10): the built-in loop over a model API, or a CLI agent. A runner
 * streams events and ends with exactly one `final` or `error`; it must honour the signal.
 */
export interface Runner {
  /** P13: the runner hands `images` to its model (the built-in runners); a CLI agent does not. */
  readonly takesImages?: boolean;
  run(request: RunnerRequest): AsyncIterable<RunnerEvent>;
  /**
   * P16, A9: the runner takes `request.steering` at its tool boundaries (the built-in loops). A
   * runner without it (a CLI agent) is never steered: a message while it runs queues a turn.
   */
  readonly takesSteering?: boolean;
  /**
   * T2, A9: the runner checkpoints a turn before its first model call and at every tool
   * boundary (the built-in loops), so a turn of it that no process holds is run on from its
   * checkpoint, or from its prompt when it has none. A runner without it (a CLI agent, whose
   * process may have done anything) is never run again after a crash.
   */
  readonly checkpoints?: boolean;
  /**
   * E1, E2: the agent's turns reach the MCP servers' tools through Summon's MCP endpoint (a
   * CLI agent such as Claude Code), so the turn lists them as it does for the built-in loops.
   */
  mcpThroughEndpoint?(agent: AgentRecord): boolean;
}

/** Picks the runner for an agent (A10: no adapter = the built-in loop). */
export type RunnerResolver = (agent: AgentRecord) => Runner;
