import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import type { TokenUsage } from '../../../src/core/model/usage/token-usage';
import type { RunnerEvent } from '../../../src/core/ports/runner';
import { costOf, priceOf } from '../../../src/core/usage/price-table';
import { addUsage, NO_USAGE } from '../../../src/core/usage/token-usage';
import { pathTool, recordingTools } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { commonPrefix, OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const ANTHROPIC_KEY = 'sk-ant-test-SECRET-cache-31';
const OPENAI_KEY = 'sk-openai-test-SECRET-cache';
const ROUNDS = 30;
const OUTPUT = `${'line of build output\n'.repeat(146)}`; // about 3 KB

type Body = { system?: unknown; tools?: unknown[]; messages: unknown[] };
const withoutMarks = (value: unknown): string =>
  JSON.stringify(value, (key, inner) => (key === 'cache_control' ? undefined : inner));
const usages = (events: RunnerEvent[]): TokenUsage[] =>
  events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
const request = (overrides: Parameters<typeof runnerRequest>[1]) =>
  runnerRequest(
    { agent: testAgent(), system: 'You are engineer. '.repeat(40), prompt: 'Run the build.' },
    overrides,
  );

describe('A14: the built-in loop pays once for its prefix', () => {
  it('A14: a 30-round Anthropic turn: at most four breakpoints, each request repeats the previous one byte for byte before its newest round, usage read from the cache and priced at its rates', async () => {
    const standIn = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY, promptCache: true });
    try {
      let round = 0;
      standIn.reply = () =>
        round++ < ROUNDS
          ? {
              kind: 'stream',
              blocks: [{ type: 'tool_use', name: 'read_file', input: { path: `log${round}` } }],
            }
          : { kind: 'stream', blocks: [{ type: 'text', chunks: ['built'] }] };
      const tools = recordingTools([pathTool('read_file'), pathTool('list_files')], () => ({
        ok: true,
        output: OUTPUT,
      }));
      const runner = new AnthropicRunner({
        apiKey: ANTHROPIC_KEY,
        baseUrl: standIn.url,
        defaultModel: 'claude-sonnet-4-6',
        maxRetries: 0,
      });
      const events = await collectEvents(runner.run(request({ tools })));
      expect(events.at(-1)).toEqual({ type: 'final', text: 'built' });
      const bodies = standIn.requests.map((r) => r.body as Body);
      expect(bodies).toHaveLength(ROUNDS + 1);
      expect(standIn.requests.every((r) => r.status === 200)).toBe(true);
      for (const [i, body] of bodies.entries()) {
        expect(JSON.stringify(body).split('"cache_control"').length - 1).toBeLessThanOrEqual(4);
        const previous = bodies[i - 1];
        if (previous === undefined) continue;
        expect(withoutMarks(body.tools)).toBe(withoutMarks(previous.tools));
        expect(withoutMarks(body.system)).toBe(withoutMarks(previous.system));
        expect(withoutMarks(body.messages.slice(0, previous.messages.length))).toBe(
          withoutMarks(previous.messages),
        );
      }
      // O3: the stand-in's usage, as the API reports it: after the first request, everything
      // before the newest round is read from the cache and only that round is written.
      const used = usages(events);
      expect(used).toHaveLength(ROUNDS + 1);
      expect(used[0]?.cacheReadTokens).toBe(0);
      for (const usage of used.slice(1)) {
        expect(usage.cacheReadTokens).toBeGreaterThan(0);
        expect(usage.cacheWriteTokens).toBeLessThan(OUTPUT.length / 4 + 200);
      }
      const total = used.reduce(addUsage, NO_USAGE);
      const price = priceOf('claude-sonnet-4-6');
      if (price === undefined) throw new Error('claude-sonnet-4-6 has no price');
      const cached = costOf('claude-sonnet-4-6', total) ?? 0;
      const expected =
        (total.inputTokens * price.input +
          total.cacheWriteTokens * price.cacheWrite +
          total.cacheReadTokens * price.cacheRead +
          total.outputTokens * price.output) /
        1e6;
      expect(cached).toBeCloseTo(expected, 8);
      const uncached =
        ((total.inputTokens + total.cacheReadTokens + total.cacheWriteTokens) * price.input +
          total.outputTokens * price.output) /
        1e6;
      expect(uncached / cached).toBeGreaterThan(4);
    } finally {
      await standIn.close();
    }
  });

  it('A14: the Anthropic stand-in refuses what the API refuses: a fifth breakpoint, a breakpoint on a thinking block', async () => {
    const standIn = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY, promptCache: true });
    const post = async (body: Record<string, unknown>) => {
      const response = await fetch(`${standIn.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': ANTHROPIC_KEY,
          'anthropic-version': '2023-06-01',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 100, stream: true, ...body }),
      });
      const text = await response.text();
      return { status: response.status, text };
    };
    const mark = { type: 'ephemeral' };
    try {
      const five = await post({
        system: [1, 2, 3].map((n) => ({ type: 'text', text: `part ${n}`, cache_control: mark })),
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a', cache_control: mark },
              { type: 'text', text: 'b', cache_control: mark },
            ],
          },
        ],
      });
      expect(five.status).toBe(400);
      expect(five.text).toContain('A maximum of 4 blocks with cache_control may be provided. Found 5.');
      const thinking = await post({
        thinking: { type: 'enabled', budget_tokens: 1024 },
        max_tokens: 2048,
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [{ type: 'thinking', thinking: 't', signature: 's', cache_control: mark }],
          },
          { role: 'user', content: 'r' },
        ],
      });
      expect(thinking.status).toBe(400);
      expect(thinking.text).toContain(
        'messages.1.content.0.thinking.cache_control: Extra inputs are not permitted',
      );
    } finally {
      await standIn.close();
    }
  });

  it('A14: a 30-round OpenAI-compatible turn repeats the previous request byte for byte: the server reuses all of the previous request (95% and more of the prompts of a long turn)', async () => {
    const standIn = await OpenAiStandIn.start({ apiKey: OPENAI_KEY, prefixCache: true });
    try {
      for (let i = 0; i < ROUNDS; i++)
        standIn.script({
          kind: 'stream',
          deltas: [],
          toolCalls: [{ name: 'read_file', arguments: { path: `log${i}` } }],
        });
      standIn.script({ kind: 'stream', deltas: ['built'] });
      const tools = recordingTools([pathTool('read_file')], () => ({ ok: true, output: OUTPUT }));
      const runner = new OpenAiRunner({
        baseUrl: standIn.baseUrl,
        apiKey: OPENAI_KEY,
        defaultModel: 'llama3.1',
        maxRetries: 0,
        defaultContextTokens: 200_000,
      });
      const events = await collectEvents(runner.run(request({ tools })));
      expect(events.at(-1)).toEqual({ type: 'final', text: 'built' });
      const prompts = standIn.requests.map((r) => {
        const body = r.body as Body;
        return JSON.stringify({ tools: body.tools, messages: body.messages });
      });
      expect(prompts).toHaveLength(ROUNDS + 1);
      for (const [i, prompt] of prompts.entries()) {
        const previous = prompts[i - 1];
        if (previous === undefined) continue;
        // everything of the previous request but its closing brackets comes first, unchanged
        expect(commonPrefix(previous, prompt)).toBe(previous.length - 2);
      }
      // the server reuses the whole previous request: all but the newest round is a cache read
      const used = usages(events);
      for (const [i, usage] of used.entries()) {
        const previous = prompts[i - 1];
        if (previous !== undefined) expect(usage.cacheReadTokens).toBe(Math.floor((previous.length - 2) / 4));
      }
      const late = used.slice(ROUNDS / 2);
      const share =
        late.reduce((sum, u) => sum + u.cacheReadTokens, 0) /
        late.reduce((sum, u) => sum + u.cacheReadTokens + u.inputTokens, 0);
      expect(share).toBeGreaterThanOrEqual(0.95);
    } finally {
      await standIn.close();
    }
  });
});
