import type { McpCallDecision, McpCallOutcome } from '../model/mcp/mcp-call-record';
import type { Platform } from '../model/platform';
import type { RunLiveness, RunStatus } from '../model/run';

/** What a push at the git gateway was decided (G2, G5). */
export type PushDecision = 'allow' | 'deny' | 'ask';

/** Kinds of tokens a model reports for a turn (input, output, cache reads and writes). */
export type TokenKind = 'input' | 'output' | 'cache_read' | 'cache_write';

/** Levels read when the metrics are scraped (per process: Prometheus sums processes). */
export interface MetricSources {
  /** Turns waiting in the queue for a worker. */
  queueDepth?: () => Promise<number> | number;
  /** T1: turns of this process that wait (a person, another agent, an approval) holding no slot. */
  waitingTurns?: () => number;
  /** T3: turns of this process holding a slot. */
  activeTurns?: () => number;
}

/**
 * What the product counts, in its own words. The adapter (`src/adapters/metrics`) turns these
 * into Prometheus series; `noMetrics` counts nothing (tests that do not care, tools).
 */
export interface Metrics {
  /** T4: an inbound event a front end handed in. */
  eventReceived(platform: Platform): void;
  /** T4: stored (or known already) and acknowledged to the platform. */
  eventAcknowledged(platform: Platform): void;
  /** P6: a delivery seen before (stored or processed already). */
  eventDeduplicated(platform: Platform): void;
  /** P8: a message refused (unknown account, role, unbound channel). */
  eventRefused(platform: Platform): void;
  /**
   * T3: a queued run woken: started in this process at once, without the queue (`local`: a
   * free slot and this process runs turns), or through the job queue (`queue`).
   */
  turnWoken(path: 'local' | 'queue'): void;
  /** A12: a turn ended, with its status and liveness. */
  turnFinished(status: RunStatus, liveness: RunLiveness): void;
  /** A12: a running turn's liveness changed. */
  livenessChanged(liveness: RunLiveness): void;
  /** P7: an outgoing call was stored to be sent (`delta` +1), or was sent or given up (-1). */
  outboxBacklog(platform: Platform, delta: 1 | -1): void;
  /** P7: an outgoing call will be tried again; `rateLimited` when the platform answered 429. */
  outboxRetry(platform: Platform, rateLimited: boolean): void;
  /** A9: one runner call from start to its final or error event. */
  modelLatency(agent: string, seconds: number, outcome: 'final' | 'error'): void;
  /** Tokens a turn used, when the runner reports them. */
  modelTokens(agent: string, kind: TokenKind, tokens: number): void;
  /** G5: a push the gateway decided. */
  gatewayPush(decision: PushDecision): void;
  /** E4, O4: one MCP call, how it was decided, how it went and how long it took (0 when refused). */
  mcpCall(
    call: { server: string; tool: string; decision: McpCallDecision; outcome: McpCallOutcome },
    seconds: number,
  ): void;
  /** Levels read at scrape time; a later call replaces the sources it names. */
  observe(sources: MetricSources): void;
}

/** Counts nothing. */
export const noMetrics: Metrics = {
  eventReceived: () => {},
  eventAcknowledged: () => {},
  eventDeduplicated: () => {},
  eventRefused: () => {},
  turnWoken: () => {},
  turnFinished: () => {},
  livenessChanged: () => {},
  outboxBacklog: () => {},
  outboxRetry: () => {},
  modelLatency: () => {},
  modelTokens: () => {},
  gatewayPush: () => {},
  mcpCall: () => {},
  observe: () => {},
};
