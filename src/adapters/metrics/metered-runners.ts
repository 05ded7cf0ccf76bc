import { performance } from 'node:perf_hooks';
import type { TokenUsage } from '../../core/model/usage/token-usage';
import type { Metrics, TokenKind } from '../../core/ports/metrics';
import type { Runner, RunnerEvent, RunnerResolver } from '../../core/ports/runner';

const TOKEN_FIELDS: readonly [keyof TokenUsage, TokenKind][] = [
  ['inputTokens', 'input'],
  ['outputTokens', 'output'],
  ['cacheReadTokens', 'cache_read'],
  ['cacheWriteTokens', 'cache_write'],
];

/** O3: the tokens of one model call, from the runner's `usage` event. */
export function reportedUsage(event: RunnerEvent): TokenUsage | undefined {
  return event.type === 'usage' ? event.usage : undefined;
}

/**
 * Every runner the resolver picks, timed: the model latency of a turn is its runner call from
 * start to the final answer or error, per agent; tokens are counted when the runner reports them.
 */
export function meteredRunners(runners: RunnerResolver, metrics: Metrics): RunnerResolver {
  return (agent) => {
    const runner = runners(agent);
    const metered: Runner = {
      // T3: the literal opens with its own member, not a spread (docs/turns-and-capacity.md).
      async *run(request) {
        const started = performance.now();
        for await (const event of runner.run(request)) {
          if (event.type === 'final' || event.type === 'error')
            metrics.modelLatency(agent.name, (performance.now() - started) / 1000, event.type);
          const usage = reportedUsage(event);
          for (const [field, kind] of TOKEN_FIELDS) {
            const tokens = usage?.[field] ?? 0;
            if (tokens > 0) metrics.modelTokens(agent.name, kind, tokens);
          }
          yield event;
        }
      },
      // P13: the wrapped runner's image input stays known to the engine.
      ...(runner.takesImages === true ? { takesImages: true } : {}),
      // P16: whether the runner takes steering is the runner's, metered or not.
      ...(runner.takesSteering === true ? { takesSteering: true } : {}),
      // T2: so is whether it checkpoints its turns (recovery runs them again only then).
      ...(runner.checkpoints === true ? { checkpoints: true } : {}),
      // E2: and whether its agents reach the MCP tools through Summon's endpoint.
      ...(runner.mcpThroughEndpoint === undefined
        ? {}
        : { mcpThroughEndpoint: (forAgent) => runner.mcpThroughEndpoint?.(forAgent) === true }),
    };
    return metered;
  };
}
