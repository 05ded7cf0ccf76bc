import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { meteredRunners } from '../../src/adapters/metrics/metered-runners';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics';
import { MessageAssembly } from '../../src/adapters/runners/anthropic-message-stream';
import { AnthropicRunner } from '../../src/adapters/runners/anthropic-runner';
import { requestJson } from '../../src/adapters/runners/request-body';
import { DEFAULT_MODEL } from '../../src/config/config';
import type { Runner, RunnerEvent } from '../../src/core/ports/runner';
import { composePrompt } from '../../src/core/prompt';
import type { CapturedTurn } from './model-call-capture';

const ROUNDS = 5;

/** One part's CPU µs per operation: the mean of its rounds, and their spread. */
export interface Measured {
  label: string;
  mean: number;
  min: number;
  max: number;
}

interface Part {
  label: string;
  run: () => unknown;
}

/**
 * The parts of Summon's model call and of the turn around it, each without the network, on the
 * captured turn: its prompt composed, its tools built, the request body built and written as
 * sent (A4 sizes the request from it), the body by `JSON.stringify` (beside the bare bot's), the stream read (the events one
 * call received, replayed) and the metering (the runner's events through `meteredRunners`,
 * less the same events alone). Rounds alternate the parts; `operations` of each in all.
 */
export async function measureParts(
  captured: CapturedTurn,
  operations: number,
  recorded: { stream: RawMessageStreamEvent[]; events: RunnerEvent[]; bareBody: object },
): Promise<Measured[]> {
  const { request, promptInput, toolKit, scope } = captured;
  const runner = new AnthropicRunner({ apiKey: 'unused', defaultModel: DEFAULT_MODEL });
  const params = runner.params(request);
  const replayed: Runner = {
    async *run() {
      for (const event of recorded.events) yield event;
    },
  };
  const metered = meteredRunners(() => replayed, new PrometheusMetrics())(request.agent);
  const drain = async (source: AsyncIterable<unknown>) => {
    for await (const _ of source);
  };
  const parts: Part[] = [
    { label: 'prompt composed (composePrompt)', run: () => composePrompt(promptInput) },
    { label: 'tool kit built (the turn’s TurnToolsFactory)', run: () => toolKit(scope) },
    { label: 'request body built (runner.params)', run: () => runner.params(request) },
    { label: 'body written as sent (requestJson)', run: () => requestJson(params) },
    { label: 'body by JSON.stringify (the SDK’s own way)', run: () => JSON.stringify(params) },
    { label: 'bare bot: body serialized', run: () => JSON.stringify(recorded.bareBody) },
    { label: 'stream read (one call’s events, replayed)', run: () => readAll(recorded.stream) },
    { label: 'runner events, replayed alone', run: () => drain(replayed.run(request)) },
    { label: 'runner events, replayed through the meter', run: () => drain(metered.run(request)) },
  ];
  const per = Math.max(1, Math.floor(operations / ROUNDS));
  const samples = new Map<string, number[]>();
  for (const part of parts) for (let i = 0; i < 200; i++) await part.run();
  for (let round = 0; round < ROUNDS; round++) {
    for (const part of round % 2 === 0 ? parts : [...parts].reverse()) {
      const cpu = process.cpuUsage();
      for (let i = 0; i < per; i++) await part.run();
      const used = process.cpuUsage(cpu);
      samples.set(part.label, [...(samples.get(part.label) ?? []), (used.user + used.system) / per]);
    }
  }
  return parts.map(({ label }) => {
    const values = samples.get(label) ?? [0];
    return {
      label,
      mean: values.reduce((a, b) => a + b, 0) / values.length,
      min: Math.min(...values),
      max: Math.max(...values),
    };
  });
}

/** The events as the runner reads them off the SDK's stream (the stream itself is the SDK's). */
async function readAll(events: readonly RawMessageStreamEvent[]) {
  const assembly = new MessageAssembly();
  for (const event of events) assembly.take(event);
  return assembly.message();
}
