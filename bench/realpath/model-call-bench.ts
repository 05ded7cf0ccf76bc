/**
 * `npm run bench -- model-call [calls]` (a DIAGNOSTIC, no goal is read from it): what Summon's
 * process spends on one model call of an instant turn beside the bare bot's, in one process,
 * against the repo's Anthropic stand-in (`pong` at once, as `instant`'s) run in a child process so
 * that this process's CPU is the client's alone. Whole calls over HTTP, alternating in rounds:
 * the bare bot's (`baselineAnswer`) and Summon's built-in runner, metered as `summon serve` wraps
 * it, on the request an instant turn builds (`model-call-capture.ts`); then the parts of Summon's
 * turn around and inside the call, without the network (`model-call-parts.ts`).
 */
import { createHook } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import { meteredRunners } from '../../src/adapters/metrics/metered-runners';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics';
import { AnthropicRunner } from '../../src/adapters/runners/anthropic-runner';
import { DEFAULT_MODEL } from '../../src/config/config';
import type { RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import { Cleanup } from '../core/cleanup';
import type { Endpoints } from '../core/endpoints';
import { median } from '../core/stats';
import { baselineAnswer, baselineAnthropic } from './bot-setup';
import { startChild } from './child';
import { captureInstantTurn } from './model-call-capture';
import { type Measured, measureParts } from './model-call-parts';
import { BOT_USER } from './stand-ins';

const API_KEY = 'sk-ant-bench-0123456789';
const ROUNDS = 10;
/** What the bare bot is asked: the mention's text as Slack delivers it (`instant`'s). */
const BARE_PROMPT = `<@${BOT_USER}> @engineer ping mention-1`;

interface StandInInfo {
  url: string;
  cpuMicros: number;
  lastBodyBytes: number;
}

export async function runModelCallBench(calls: number, endpoints: Endpoints, log: (line: string) => void) {
  const cleanup = new Cleanup();
  try {
    const captured = await captureInstantTurn(endpoints);
    const dir = await mkdtemp(join(tmpdir(), 'summon-bench-model-call-'));
    cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
    const child = await startChild(
      'bench/realpath/model-call-stand-in.ts',
      [],
      { ANTHROPIC_API_KEY: API_KEY },
      join(dir, 'stand-in.log'),
      '/',
      cleanup,
    );
    const info = async (): Promise<StandInInfo> =>
      (await (await fetch(`http://127.0.0.1:${child.port}/`)).json()) as StandInInfo;
    const { url } = await info();
    const whole = wholeCalls(url, captured.request);

    // Warm-up (V8 compiles the hot paths), then the bytes each kind of call sent.
    for (const call of whole) for (let i = 0; i < 1000; i++) await call.run();
    const bytes = new Map<string, number>();
    for (const call of whole) {
      await info();
      await call.run();
      bytes.set(call.label, (await info()).lastBodyBytes);
    }

    log(`model-call (DIAGNOSTIC): ${calls} calls of each, in ${ROUNDS} alternating rounds; CPU µs a call`);
    report(whole, await measureWhole(whole, calls, info), bytes, log);
    // Recorded now, while the stand-in's connections are in use (the parts need one call's events).
    const recorded = await recordOneCall(url, captured.request);
    // The same calls with the SDK's fetch answered in this process with the stand-in's bytes: no
    // socket, no other process, so a steadier figure of the client's own work.
    const sse = await recordedAnswer(url);
    const inProcess = withFetch(
      async () => new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
      () => wholeCalls(url, captured.request),
    );
    for (const call of inProcess) for (let i = 0; i < 1000; i++) await call.run();
    log('  the same, the SDK’s fetch answered in this process (no socket, no stand-in):');
    const noStandIn = async () => ({ url, cpuMicros: 0, lastBodyBytes: 0 });
    report(inProcess, await measureWhole(inProcess, calls, noStandIn), bytes, log);
    const promises: string[] = [];
    for (const call of inProcess)
      promises.push(`${call.label} ${(await promisesPerCall(call.run)).toFixed(0)}`);
    log(`  promises made a call (load-independent; in process, 1000 calls): ${promises.join(', ')}`);
    // The parts are short: ten times as many of each, so a round outlasts the clock's jitter.
    const parts = await measureParts(captured, calls * 10, recorded);
    log('  parts of Summon’s call and turn, without the network (CPU µs each, mean of rounds; min–max):');
    for (const part of parts) log(`    ${describe(part)}`);
  } finally {
    await cleanup.run();
  }
}

/** Each call's mean, its rounds, and the median of the rounds' paired differences. */
function report(
  whole: { label: string }[],
  rounds: Map<string, Sample>[],
  bytes: Map<string, number>,
  log: (line: string) => void,
): void {
  for (const call of whole) {
    const mine = rounds.map((round) => round.get(call.label) as Sample);
    const mean = (pick: (s: Sample) => number) => mine.reduce((sum, s) => sum + pick(s), 0) / mine.length;
    log(
      `  ${call.label.padEnd(27)} ${mean((s) => s.cpu)
        .toFixed(0)
        .padStart(6)} µs a call ` +
        `(${mean((s) => s.system).toFixed(0)} of it the kernel's), stand-in ${mean((s) => s.standIn).toFixed(0)} µs; ` +
        `request body ${bytes.get(call.label) ?? 0} bytes; rounds ${mine.map((s) => s.cpu.toFixed(0)).join(' ')}`,
    );
  }
  // Paired within each round (the machine's load moves both calls of a round alike): the median difference.
  const [bare, ...others] = whole.map((call) => call.label) as [string, ...string[]];
  for (const other of others) {
    const diff = (pick: (s: Sample) => number) =>
      median(rounds.map((round) => pick(round.get(other) as Sample) - pick(round.get(bare) as Sample)));
    log(
      `  ${other} − ${bare}, median of the rounds' differences: ${diff((s) => s.cpu).toFixed(0)} µs a call, ` +
        `the stand-in's ${diff((s) => s.standIn).toFixed(0)} µs`,
    );
  }
}

/** The stand-in's answer as it streams it (SSE bytes), for a fetch answered in this process. */
async function recordedAnswer(url: string): Promise<string> {
  const response = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: DEFAULT_MODEL,
      max_tokens: 8192,
      messages: [{ role: 'user', content: BARE_PROMPT }],
      stream: true,
    }),
  });
  return response.text();
}

/** The promises `run` makes, a call (an `async_hooks` init hook; each is work and garbage). */
async function promisesPerCall(run: () => Promise<void>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') made += 1;
    },
  });
  hook.enable();
  try {
    for (let i = 0; i < 1000; i++) await run();
  } finally {
    hook.disable();
  }
  return made / 1000;
}

/** `make()` with `fetch` as the global fetch (the SDK's clients take the global one when built). */
function withFetch<T>(fetchImpl: typeof fetch, make: () => T): T {
  const real = globalThis.fetch;
  globalThis.fetch = fetchImpl;
  try {
    return make();
  } finally {
    globalThis.fetch = real;
  }
}

interface Sample {
  cpu: number;
  system: number;
  standIn: number;
}

/** Each round: `calls ÷ ROUNDS` of each call in turn (the order reversed every other round). */
async function measureWhole(
  whole: { label: string; run: () => Promise<void> }[],
  calls: number,
  info: () => Promise<StandInInfo>,
): Promise<Map<string, Sample>[]> {
  const perRound = Math.max(1, Math.floor(calls / ROUNDS));
  const rounds: Map<string, Sample>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const samples = new Map<string, Sample>();
    for (const call of round % 2 === 0 ? whole : [...whole].reverse()) {
      const before = await info();
      const cpu = process.cpuUsage();
      for (let i = 0; i < perRound; i++) await call.run();
      const used = process.cpuUsage(cpu);
      const after = await info();
      samples.set(call.label, {
        cpu: (used.user + used.system) / perRound,
        system: used.system / perRound,
        standIn: (after.cpuMicros - before.cpuMicros) / perRound,
      });
    }
    rounds.push(samples);
  }
  return rounds;
}

const describe = (part: Measured) =>
  `${part.label.padEnd(44)} ${part.mean.toFixed(1).padStart(7)}  (${part.min.toFixed(1)}–${part.max.toFixed(1)})`;

/** One call's raw stream events (as the SDK parsed them) and runner events, and the bare bot's body. */
async function recordOneCall(url: string, request: RunnerRequest) {
  const client = baselineAnthropic();
  const runner = new AnthropicRunner({ apiKey: API_KEY, baseUrl: url, defaultModel: DEFAULT_MODEL });
  const stream: RawMessageStreamEvent[] = [];
  for await (const event of await client.messages.create(runner.params(request))) stream.push(event);
  const { checkpoint: _write, steering: _feed, ...rest } = request;
  const events: RunnerEvent[] = [];
  for await (const event of runner.run({ ...rest, signal: new AbortController().signal })) events.push(event);
  const bareBody = {
    model: DEFAULT_MODEL,
    max_tokens: 8192,
    messages: [{ role: 'user', content: BARE_PROMPT }],
    stream: true,
  };
  return { stream, events, bareBody };
}

/** The two whole calls: the bare bot's, and Summon's runner, metered, consumed as a turn does. */
function wholeCalls(url: string, request: RunnerRequest): { label: string; run: () => Promise<void> }[] {
  process.env.ANTHROPIC_API_KEY = API_KEY;
  process.env.ANTHROPIC_BASE_URL = url;
  const anthropic = baselineAnthropic();
  const runner = new AnthropicRunner({ apiKey: API_KEY, baseUrl: url, defaultModel: DEFAULT_MODEL });
  const metered = meteredRunners(() => runner, new PrometheusMetrics())(request.agent);
  const summon = async () => {
    // The turn's own signal and no checkpoint: the call alone (T2's write is the store's cost).
    const { checkpoint: _write, steering: _feed, ...rest } = request;
    let text = '';
    for await (const event of metered.run({ ...rest, signal: new AbortController().signal })) {
      if (event.type === 'text') text += event.delta;
      if (event.type === 'error') throw new Error(event.message);
    }
    if (!text.startsWith('pong')) throw new Error(`unexpected answer: ${text}`);
  };
  const bare = async () => {
    const text = await baselineAnswer(anthropic, BARE_PROMPT);
    if (!text.startsWith('pong')) throw new Error(`unexpected answer: ${text}`);
  };
  // The bare bot's call with Summon's request: what the request's size costs apart from the runner.
  const params = new AnthropicRunner({ apiKey: API_KEY, baseUrl: url, defaultModel: DEFAULT_MODEL }).params(
    request,
  );
  const bareSummonsRequest = async () => {
    const message = await anthropic.messages.stream(params).finalMessage();
    if (message.content[0]?.type !== 'text') throw new Error('unexpected answer');
  };
  return [
    { label: 'bare SDK call', run: bare },
    { label: 'bare SDK, Summon’s request', run: bareSummonsRequest },
    { label: 'Summon runner', run: summon },
  ];
}
