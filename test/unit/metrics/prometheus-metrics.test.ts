import { meteredRunners } from '../../../src/adapters/metrics/metered-runners';
import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics';
import type { AgentRecord } from '../../../src/core/model/records';
import type { Runner, RunnerRequest } from '../../../src/core/ports/runner';
import { parsePrometheusText, sampleValue } from '../../support/scrape-metrics';

const parse = async (metrics: PrometheusMetrics) => parsePrometheusText(await metrics.text());

describe('PrometheusMetrics (the Metrics port over prom-client)', () => {
  it('names every count of the product in its series, with labels', async () => {
    const metrics = new PrometheusMetrics();
    metrics.eventReceived('slack');
    metrics.eventReceived('slack');
    metrics.eventAcknowledged('slack');
    metrics.eventDeduplicated('discord');
    metrics.eventRefused('slack');
    metrics.turnFinished('failed', 'stalled');
    metrics.livenessChanged('looping');
    metrics.outboxBacklog('discord', 1);
    metrics.outboxBacklog('discord', 1);
    metrics.outboxBacklog('discord', -1);
    metrics.outboxRetry('slack', true);
    metrics.outboxRetry('slack', false);
    metrics.modelLatency('engineer', 1.5, 'final');
    metrics.modelTokens('engineer', 'input', 120);
    metrics.gatewayPush('deny');
    let depth = 3;
    metrics.observe({ queueDepth: async () => depth, waitingTurns: () => 2, activeTurns: () => 1 });
    const f = await parse(metrics);
    const events = 'summon_inbound_events_total';
    expect(sampleValue(f, events, { platform: 'slack', stage: 'received' })).toBe(2);
    expect(sampleValue(f, events, { platform: 'slack', stage: 'acknowledged' })).toBe(1);
    expect(sampleValue(f, events, { platform: 'discord', stage: 'deduplicated' })).toBe(1);
    expect(sampleValue(f, events, { platform: 'slack', stage: 'refused' })).toBe(1);
    expect(sampleValue(f, 'summon_turns_finished_total', { status: 'failed', liveness: 'stalled' })).toBe(1);
    expect(sampleValue(f, 'summon_turn_liveness_changes_total', { liveness: 'looping' })).toBe(1);
    expect(sampleValue(f, 'summon_outbox_backlog', { platform: 'discord' })).toBe(1);
    expect(sampleValue(f, 'summon_outbox_retries_total', { platform: 'slack', reason: 'rate_limited' })).toBe(
      1,
    );
    expect(sampleValue(f, 'summon_outbox_retries_total', { platform: 'slack', reason: 'error' })).toBe(1);
    expect(sampleValue(f, 'summon_model_latency_seconds_sum', { agent: 'engineer' })).toBe(1.5);
    expect(sampleValue(f, 'summon_model_latency_seconds_bucket', { agent: 'engineer', le: '1' })).toBe(0);
    expect(sampleValue(f, 'summon_model_latency_seconds_bucket', { agent: 'engineer', le: '2.5' })).toBe(1);
    expect(sampleValue(f, 'summon_model_tokens_total', { agent: 'engineer', kind: 'input' })).toBe(120);
    expect(sampleValue(f, 'summon_gateway_pushes_total', { decision: 'deny' })).toBe(1);
    expect(sampleValue(f, 'summon_queue_depth')).toBe(3);
    expect(sampleValue(f, 'summon_turns_waiting')).toBe(2);
    expect(sampleValue(f, 'summon_turns_active')).toBe(1);
    depth = 0;
    expect(sampleValue(await parse(metrics), 'summon_queue_depth')).toBe(0);
  });

  it('O4, E4: counts MCP calls by server, tool, decision and outcome, and times those that ran', async () => {
    const metrics = new PrometheusMetrics();
    const call = { server: 'linear', tool: 'linear__create_issue' };
    metrics.mcpCall({ ...call, decision: 'ask', outcome: 'ok' }, 0.3);
    metrics.mcpCall({ ...call, decision: 'granted', outcome: 'ok' }, 0.2);
    metrics.mcpCall({ ...call, decision: 'deny', outcome: 'refused' }, 0);
    const f = await parse(metrics);
    const total = 'summon_mcp_calls_total';
    expect(sampleValue(f, total, { ...call, decision: 'ask', outcome: 'ok' })).toBe(1);
    expect(sampleValue(f, total, { ...call, decision: 'granted', outcome: 'ok' })).toBe(1);
    expect(sampleValue(f, total, { ...call, decision: 'deny', outcome: 'refused' })).toBe(1);
    // A refused call never reached the server: only the two that ran are timed.
    expect(sampleValue(f, 'summon_mcp_call_duration_seconds_count', call)).toBe(2);
    expect(sampleValue(f, 'summon_mcp_call_duration_seconds_sum', call)).toBeCloseTo(0.5);
  });

  it('two runtimes count apart (one registry each, no global)', async () => {
    const a = new PrometheusMetrics();
    const b = new PrometheusMetrics();
    a.gatewayPush('allow');
    expect(sampleValue(await parse(b), 'summon_gateway_pushes_total', { decision: 'allow' })).toBe(0);
  });

  it('times each runner call per agent and counts the tokens its usage events report (O3)', async () => {
    const metrics = new PrometheusMetrics();
    const runner: Runner = {
      async *run() {
        yield { type: 'text', delta: 'hi' };
        const usage = { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 };
        yield { type: 'usage', model: 'm', usage };
        yield { type: 'usage', model: 'm', usage: { ...usage, outputTokens: 3 } };
        yield { type: 'final', text: 'hi' };
      },
    };
    const agent = { name: 'reviewer' } as AgentRecord;
    const events = [];
    for await (const event of meteredRunners(() => runner, metrics)(agent).run({} as RunnerRequest))
      events.push(event.type);
    expect(events).toEqual(['text', 'usage', 'usage', 'final']);
    const f = await parse(metrics);
    expect(
      sampleValue(f, 'summon_model_latency_seconds_count', { agent: 'reviewer', outcome: 'final' }),
    ).toBe(1);
    expect(sampleValue(f, 'summon_model_tokens_total', { agent: 'reviewer', kind: 'output' })).toBe(7);
    expect(sampleValue(f, 'summon_model_tokens_total', { agent: 'reviewer', kind: 'input' })).toBe(20);
    expect(sampleValue(f, 'summon_model_tokens_total', { agent: 'reviewer', kind: 'cache_read' })).toBe(0);
  });

  it('T2: a metered runner checkpoints its turns exactly when the runner it wraps does', () => {
    const metrics = new PrometheusMetrics();
    const agent = { name: 'reviewer' } as AgentRecord;
    const run = async function* () {
      yield { type: 'final' as const, text: 'ok' };
    };
    const builtIn: Runner = { checkpoints: true, run };
    const cli: Runner = { run };
    expect(meteredRunners(() => builtIn, metrics)(agent).checkpoints).toBe(true);
    expect(meteredRunners(() => cli, metrics)(agent).checkpoints).toBeUndefined();
  });
});

describe('the strict Prometheus text parser of the tests', () => {
  it('refuses a sample of no declared family, bad labels and bad values', () => {
    const head = '# HELP x_total x\n# TYPE x_total counter\n';
    expect(parsePrometheusText(`${head}x_total{a="1"} 2\n`).get('x_total')?.samples).toEqual([
      { name: 'x_total', labels: { a: '1' }, value: 2 },
    ]);
    expect(() => parsePrometheusText(`${head}y_total 1\n`)).toThrow('of no declared family');
    expect(() => parsePrometheusText(`${head}x_total{a=1} 1\n`)).toThrow('bad labels');
    expect(() => parsePrometheusText(`${head}x_total one\n`)).toThrow('bad value');
  });
});
