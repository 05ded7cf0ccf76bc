import { AnthropicRunner } from '../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../src/adapters/runners/openai-runner';
import type { TokenUsage } from '../../src/core/model/usage/token-usage';
import type { Runner, RunnerEvent, RunnerRequest } from '../../src/core/ports/runner';
import type { TurnTools } from '../../src/core/ports/turn-tools';
import { costOf, type ModelPrice, priceOf } from '../../src/core/usage/price-table';
import { newAgentDefaults } from '../../src/core/workspace/agent-defaults';
import { AnthropicStandIn } from '../../test/support/stand-ins/anthropic-stand-in';
import { commonPrefix, OpenAiStandIn } from '../../test/support/stand-ins/openai-stand-in';

const MODEL = 'claude-sonnet-4-6';
const KEY = 'sk-bench-cost';
/** What a `bash` call of a build prints: about 3 KB. */
const OUTPUT = 'compiling module, 0 warnings, 0 errors; elapsed 12 ms\n'.repeat(56);
/** A system prompt of a realistic size (the composed prompt is a few KB). */
const SYSTEM = 'You are engineer, an agent of this workspace. Follow the space rules. '.repeat(60);

/**
 * `npm run bench -- cost [rounds]` (A14, O3): one agent turn of `rounds` `bash` rounds (30), each
 * printing about 3 KB, against the Anthropic stand-in with its prompt cache, priced with the
 * provider's cache rates; beside it the same requests' floor (each request's prefix read from the
 * cache, only its new part written) and their price uncached. Goal: at most 1.15× the floor. Then
 * the same turn against the OpenAI-compatible stand-in: how much of each request repeats the
 * previous one byte for byte (goal: at least 95% after the first round). No database needed.
 */
export async function runCostBench(rounds: number, print: (line: string) => void): Promise<void> {
  const price = priceOf(MODEL);
  if (price === undefined) throw new Error(`${MODEL} has no price in the price table`);
  const anthropic = await AnthropicStandIn.start({ apiKey: KEY, promptCache: true });
  try {
    let round = 0;
    anthropic.reply = () =>
      round++ < rounds
        ? {
            kind: 'stream',
            blocks: [{ type: 'tool_use', name: 'bash', input: { command: `make step${round}` } }],
          }
        : { kind: 'stream', blocks: [{ type: 'text', chunks: ['built'] }] };
    const runner = new AnthropicRunner({
      apiKey: KEY,
      baseUrl: anthropic.url,
      defaultModel: MODEL,
      maxRetries: 0,
    });
    const used = await usagesOf(runner);
    const actual = used.reduce((sum, usage) => sum + (costOf(MODEL, usage) ?? 0), 0);
    const { floor, uncached } = floorAndUncached(used, price);
    const sent = used.reduce((sum, u) => sum + u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens, 0);
    print(`cost: a ${rounds}-round tool turn, ~${Math.round(OUTPUT.length / 1024)} KB per output, ${MODEL}`);
    print(`  requests ${used.length}, input tokens sent ${sent.toLocaleString('en-US')}`);
    print(
      `  cached (as billed)  $${actual.toFixed(4)}   ${(actual / floor).toFixed(2)}× the floor (goal ≤ 1.15×)`,
    );
    print(`  floor               $${floor.toFixed(4)}`);
    print(
      `  uncached            $${uncached.toFixed(4)}   ${(uncached / actual).toFixed(1)}× the cached price`,
    );
  } finally {
    await anthropic.close();
  }
  const openai = await OpenAiStandIn.start({ apiKey: KEY, prefixCache: true });
  try {
    for (let i = 0; i < rounds; i++)
      openai.script({
        kind: 'stream',
        deltas: [],
        toolCalls: [{ name: 'bash', arguments: { command: `make step${i}` } }],
      });
    openai.script({ kind: 'stream', deltas: ['built'] });
    const runner = new OpenAiRunner({
      baseUrl: openai.baseUrl,
      apiKey: KEY,
      defaultModel: 'llama3.1',
      maxRetries: 0,
      defaultContextTokens: 200_000,
    });
    await usagesOf(runner);
    const prompts = openai.requests.map((r) => {
      const body = r.body as { tools?: unknown; messages?: unknown };
      return JSON.stringify({ tools: body.tools, messages: body.messages });
    });
    const later = prompts
      .slice(1)
      .map((prompt, i) => ({ prompt, shared: commonPrefix(prompts[i] ?? '', prompt) }));
    // The previous request's closing brackets are all it does not repeat.
    const ofPrevious = Math.min(...later.map(({ shared }, i) => shared / ((prompts[i]?.length ?? 1) - 2)));
    const ofAll = later.reduce((s, r) => s + r.shared, 0) / later.reduce((s, r) => s + r.prompt.length, 0);
    print(`OpenAI-compatible prefix reuse over ${later.length} requests after the first:`);
    print(
      `  each repeats ${(ofPrevious * 100).toFixed(1)}% (at least) of the previous request byte for byte (goal ≥ 95%)`,
    );
    print(`  bytes sent that repeat the previous request: ${(ofAll * 100).toFixed(1)}%`);
  } finally {
    await openai.close();
  }
}

/** Every call's usage in one turn of `runner` with a `bash` tool printing OUTPUT. */
async function usagesOf(runner: Runner): Promise<TokenUsage[]> {
  const tools: TurnTools = {
    specs: [
      {
        name: 'bash',
        description: 'Run a shell command in your working directory.',
        inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        access: 'write',
      },
    ],
    call: async () => ({ ok: true, output: OUTPUT }),
    authorize: async () => ({ allowed: true }),
  };
  const request: RunnerRequest = {
    runId: 'bench-cost',
    agent: {
      ...newAgentDefaults('engineer'),
      id: 'a',
      workspaceId: 'w',
      title: 'Engineer',
      persona: '',
      createdAt: new Date(),
    },
    system: SYSTEM,
    prompt: 'The build is broken: find out why and fix it.',
    workingDir: '/tmp',
    tools,
    signal: new AbortController().signal,
  };
  const used: TokenUsage[] = [];
  let last: RunnerEvent | undefined;
  for await (const event of runner.run(request)) {
    if (event.type === 'usage') used.push(event.usage);
    last = event;
  }
  if (last?.type !== 'final') throw new Error(`the turn did not finish: ${JSON.stringify(last)}`);
  return used;
}

/**
 * The floor: each request reads what the previous one sent from the cache and writes only its
 * own new part; uncached: every input token at the input rate. Output is priced the same in both.
 */
function floorAndUncached(
  used: readonly TokenUsage[],
  price: ModelPrice,
): { floor: number; uncached: number } {
  let floor = 0;
  let uncached = 0;
  let previous = 0;
  for (const usage of used) {
    const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
    const read = Math.min(previous, input);
    floor += read * price.cacheRead + (input - read) * price.cacheWrite + usage.outputTokens * price.output;
    uncached += input * price.input + usage.outputTokens * price.output;
    previous = input;
  }
  return { floor: floor / 1e6, uncached: uncached / 1e6 };
}
