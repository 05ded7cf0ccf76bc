import { performance } from 'node:perf_hooks';
import type { Metrics, TokenKind } from '../../core/ports/metrics';
import type { Runner, RunnerEvent, RunnerResolver } from '../../core/ports/runner';

/** Token counts a runner may report on its events (issue 16 item 5 adds them to run results). */
interface ReportedUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

const TOKEN_FIELDS: readonly [keyof ReportedUsage, TokenKind][] = [
  ['input', 'input'],
  ['output', 'output'],
  ['cacheRead', 'cache_read'],
  ['cacheWrite', 'cache_write'],
];

/**
 * TOKEN HOOK: the usage an event carries, once runners report it (`usage` on the `final`
 * event). Until the runner port has the field this finds none and only latency is recorded;
 * when it lands, map its field names here.
 */
export function reportedUsage(event: RunnerEvent): ReportedUsage | undefined {
  const usage = (event as { usage?: unknown }).usage;
  return typeof usage === 'object' && usage !== null ? (usage as ReportedUsage) : undefined;
}

/**
 * Every runner the resolver picks, timed: the model latency of a turn is its runner call from
 * start to the final answer or error, per agent; tokens are counted when the runner reports them.
 */
export function meteredRunners(runners: RunnerResolver, metrics: Metrics): RunnerResolver {
  return (agent) => {
    const runner = runners(agent);
    const metered: Runner = {
      async *run(request) {
        const started = performance.now();
        for await (const event of runner.run(request)) {
          if (event.type === 'final' || event.type === 'error') {
            metrics.modelLatency(agent.name, (performance.now() - started) / 1000, event.type);
            const usage = reportedUsage(event);
            for (const [field, kind] of TOKEN_FIELDS) {
              const tokens = usage?.[field];
              if (typeof tokens === 'number' && tokens > 0) metrics.modelTokens(agent.name, kind, tokens);
            }
          }
          yield event;
        }
      },
    };
    return metered;
  };
}
