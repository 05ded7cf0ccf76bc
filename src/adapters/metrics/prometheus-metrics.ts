import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { McpCallDecision, McpCallOutcome } from '../../core/model/mcp/mcp-call-record';
import type { Platform } from '../../core/model/platform';
import type { RunLiveness, RunStatus } from '../../core/model/run';
import type { MetricSources, Metrics, PushDecision, TokenKind } from '../../core/ports/metrics';

/** Model calls take seconds to minutes: buckets from 0.25 s to 10 min. */
const LATENCY_BUCKETS = [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** E3: MCP calls are bounded in time; most take well under a second, a few up to minutes. */
const MCP_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The `Metrics` port over prom-client: one registry per runtime (no global), Node's process
 * metrics once the server asks for them (`withProcessMetrics`), served at `/metrics` (`text()` and `contentType`). Counters are per
 * process; Prometheus sums the processes.
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  private sources: MetricSources = {};
  private readonly events: Counter<'platform' | 'stage'>;
  private readonly wakeups: Counter<'path'>;
  private readonly turns: Counter<'status' | 'liveness'>;
  private readonly liveness: Counter<'liveness'>;
  private readonly backlog: Gauge<'platform'>;
  private readonly retries: Counter<'platform' | 'reason'>;
  private readonly latency: Histogram<'agent' | 'outcome'>;
  private readonly tokens: Counter<'agent' | 'kind'>;
  private readonly pushes: Counter<'decision'>;
  private readonly mcpCalls: Counter<'server' | 'tool' | 'decision' | 'outcome'>;
  private readonly mcpDurations: Histogram<'server' | 'tool'>;

  private processMetrics = false;

  constructor() {
    const registers = [this.registry];
    this.events = new Counter({
      name: 'summon_inbound_events_total',
      help: 'Inbound chat events by platform and stage (received, acknowledged, deduplicated, refused).',
      labelNames: ['platform', 'stage'],
      registers,
    });
    this.wakeups = new Counter({
      name: 'summon_turn_wakeups_total',
      help: 'Queued turns woken, by path: local (started in this process at once, no queue job) or queue.',
      labelNames: ['path'],
      registers,
    });
    this.turns = new Counter({
      name: 'summon_turns_finished_total',
      help: 'Turns that ended, by status and liveness.',
      labelNames: ['status', 'liveness'],
      registers,
    });
    this.liveness = new Counter({
      name: 'summon_turn_liveness_changes_total',
      help: 'Liveness changes of running turns (stalled, looping, ok again).',
      labelNames: ['liveness'],
      registers,
    });
    this.observedGauges(registers);
    this.backlog = new Gauge({
      name: 'summon_outbox_backlog',
      help: 'Outgoing platform calls of this process not yet sent or given up.',
      labelNames: ['platform'],
      registers,
    });
    this.retries = new Counter({
      name: 'summon_outbox_retries_total',
      help: 'Outgoing platform calls tried again, by platform and reason (rate_limited: a 429; error).',
      labelNames: ['platform', 'reason'],
      registers,
    });
    this.latency = new Histogram({
      name: 'summon_model_latency_seconds',
      help: 'One runner call per turn, from its start to its final answer or error, by agent.',
      labelNames: ['agent', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.tokens = new Counter({
      name: 'summon_model_tokens_total',
      help: 'Tokens turns used, by agent and kind, when the runner reports them.',
      labelNames: ['agent', 'kind'],
      registers,
    });
    this.pushes = new Counter({
      name: 'summon_gateway_pushes_total',
      help: 'Pushes at the git gateway, by decision (allow, deny, ask).',
      labelNames: ['decision'],
      registers,
    });
    this.mcpCalls = new Counter({
      name: 'summon_mcp_calls_total',
      help: 'MCP tool calls, by server, tool (<server>__<tool>), decision (allow, ask, deny, granted) and outcome (ok, error, refused).',
      labelNames: ['server', 'tool', 'decision', 'outcome'],
      registers,
    });
    this.mcpDurations = new Histogram({
      name: 'summon_mcp_call_duration_seconds',
      help: 'MCP tool calls that ran, from the request to the server to its answer, by server and tool.',
      labelNames: ['server', 'tool'],
      buckets: MCP_BUCKETS,
      registers,
    });
  }

  /** T1, T3: gauges read at scrape time from what the engine observes (`observe`). */
  private observedGauges(registers: Registry[]): void {
    const sources = () => this.sources;
    new Gauge({
      name: 'summon_queue_depth',
      help: 'Turns waiting in the queue for a worker.',
      registers,
      async collect() {
        const read = sources().queueDepth;
        // A queue that cannot be read (Redis away) keeps the last value; /readyz says why.
        if (read !== undefined) this.set(await Promise.resolve(read()).catch(() => Number.NaN));
      },
    });
    new Gauge({
      name: 'summon_turns_waiting',
      help: 'Turns of this process waiting (for a person, another agent, an approval) without a slot.',
      registers,
      collect() {
        const read = sources().waitingTurns;
        if (read !== undefined) this.set(read());
      },
    });
    new Gauge({
      name: 'summon_turns_active',
      help: 'Turns of this process holding a slot.',
      registers,
      collect() {
        const read = sources().activeTurns;
        if (read !== undefined) this.set(read());
      },
    });
  }

  /** Adds Node's process metrics (CPU, memory, event loop, GC) once: the server does, CLI commands do not. */
  withProcessMetrics(): this {
    if (!this.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'summon_' });
    this.processMetrics = true;
    return this;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  eventReceived(platform: Platform): void {
    this.events.inc({ platform, stage: 'received' });
  }
  eventAcknowledged(platform: Platform): void {
    this.events.inc({ platform, stage: 'acknowledged' });
  }
  eventDeduplicated(platform: Platform): void {
    this.events.inc({ platform, stage: 'deduplicated' });
  }
  eventRefused(platform: Platform): void {
    this.events.inc({ platform, stage: 'refused' });
  }
  turnWoken(path: 'local' | 'queue'): void {
    this.wakeups.inc({ path });
  }
  turnFinished(status: RunStatus, liveness: RunLiveness): void {
    this.turns.inc({ status, liveness });
  }
  livenessChanged(liveness: RunLiveness): void {
    this.liveness.inc({ liveness });
  }
  outboxBacklog(platform: Platform, delta: 1 | -1): void {
    this.backlog.inc({ platform }, delta);
  }
  outboxRetry(platform: Platform, rateLimited: boolean): void {
    this.retries.inc({ platform, reason: rateLimited ? 'rate_limited' : 'error' });
  }
  modelLatency(agent: string, seconds: number, outcome: 'final' | 'error'): void {
    this.latency.observe({ agent, outcome }, seconds);
  }
  modelTokens(agent: string, kind: TokenKind, tokens: number): void {
    this.tokens.inc({ agent, kind }, tokens);
  }
  gatewayPush(decision: PushDecision): void {
    this.pushes.inc({ decision });
  }
  mcpCall(
    call: { server: string; tool: string; decision: McpCallDecision; outcome: McpCallOutcome },
    seconds: number,
  ): void {
    this.mcpCalls.inc(call);
    // O4: a refused call never reached the server: no duration to observe.
    if (call.outcome !== 'refused')
      this.mcpDurations.observe({ server: call.server, tool: call.tool }, seconds);
  }
  observe(sources: MetricSources): void {
    this.sources = { ...this.sources, ...sources };
  }
}
