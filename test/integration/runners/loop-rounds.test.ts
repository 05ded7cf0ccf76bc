import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import { READ_CALLS_AT_ONCE } from '../../../src/adapters/runners/tool-round';
import type { TurnCheckpoint } from '../../../src/core/ports/run-checkpoints';
import type { ToolCall, ToolSpec, TurnTools } from '../../../src/core/ports/turn-tools';
import { pathTool } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const API_KEY = 'sk-openai-test-SECRET-rounds';

/** Tools whose calls take a while and record how many ran at once. */
function timedTools(specs: ToolSpec[]): TurnTools & { order: string[]; most: () => number } {
  let running = 0;
  let most = 0;
  const order: string[] = [];
  return {
    specs,
    order,
    most: () => most,
    call: async (call: ToolCall) => {
      running += 1;
      most = Math.max(most, running);
      order.push(`start ${(call.input as { path: string }).path}`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running -= 1;
      order.push(`end ${(call.input as { path: string }).path}`);
      return { ok: true, output: `content of ${(call.input as { path: string }).path}` };
    },
    authorize: async () => ({ allowed: true }),
  };
}

describe('the shared loop: rounds and compaction (A15, A16)', () => {
  let standIn: OpenAiStandIn;
  const runner = (options: { defaultContextTokens?: number } = {}) =>
    new OpenAiRunner({
      baseUrl: standIn.baseUrl,
      apiKey: API_KEY,
      defaultModel: 'llama3.1',
      maxRetries: 0,
      ...options,
    });
  const request = (overrides: Parameters<typeof runnerRequest>[1]) =>
    runnerRequest({ agent: testAgent(), system: 'You are engineer.', prompt: 'Look around.' }, overrides);

  beforeEach(async () => {
    standIn = await OpenAiStandIn.start({ apiKey: API_KEY, prefixCache: true });
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('A16: the read-only calls of a round run together (bounded), a write alone; events and results keep the model order', async () => {
    const tools = timedTools([
      { ...pathTool('read_file'), access: 'read' },
      { ...pathTool('write_file'), access: 'write' },
    ]);
    const reads = ['a', 'b', 'c', 'd', 'e'].map((path) => ({ name: 'read_file', arguments: { path } }));
    standIn.script(
      {
        kind: 'stream',
        deltas: [],
        toolCalls: [
          ...reads,
          { name: 'write_file', arguments: { path: 'w' } },
          { name: 'read_file', arguments: { path: 'z' } },
        ],
      },
      { kind: 'stream', deltas: ['done'] },
    );
    const events = await collectEvents(runner().run(request({ tools })));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'done' });
    expect(tools.most()).toBe(READ_CALLS_AT_ONCE);
    // the write starts only after every read before it ended, and ends before the next read starts
    const at = (entry: string) => tools.order.indexOf(entry);
    for (const path of ['a', 'b', 'c', 'd', 'e']) expect(at(`end ${path}`)).toBeLessThan(at('start w'));
    expect(at('end w')).toBeLessThan(at('start z'));
    // P9: each call's start and end, in the model's order
    const rows = events.flatMap((e) =>
      e.type === 'tool_start' ? [`start ${e.summary}`] : e.type === 'tool_end' ? [`end ${e.callId}`] : [],
    );
    expect(rows.filter((r) => r.startsWith('start'))).toEqual(
      ['a', 'b', 'c', 'd', 'e', 'w', 'z'].map((p) => `start ${p}`),
    );
    const results = (standIn.requests[1]?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual(['a', 'b', 'c', 'd', 'e', 'w', 'z'].map((p) => `content of ${p}`));
  });

  it('A15: an OpenAI-compatible turn that outgrows its window is summarized once (tool_choice none) and the checkpoint keeps the summary; never one round dropped per request', async () => {
    const big = 'y'.repeat(4000);
    const tools: TurnTools = {
      specs: [pathTool('read_file')],
      call: async () => ({ ok: true, output: big }),
      authorize: async () => ({ allowed: true }),
    };
    const checkpoints: TurnCheckpoint[] = [];
    for (let i = 0; i < 4; i++)
      standIn.script({
        kind: 'stream',
        deltas: [],
        toolCalls: [{ name: 'read_file', arguments: { path: `f${i}` } }],
      });
    standIn.script({ kind: 'stream', deltas: ['Read f0 to f2.'] });
    for (let i = 4; i < 6; i++)
      standIn.script({
        kind: 'stream',
        deltas: [],
        toolCalls: [{ name: 'read_file', arguments: { path: `f${i}` } }],
      });
    standIn.script({ kind: 'stream', deltas: ['finished'] });
    const events = await collectEvents(
      runner({ defaultContextTokens: 3500 }).run(
        request({ tools, checkpoint: async (state) => void checkpoints.push(structuredClone(state)) }),
      ),
    );
    expect(events.at(-1)).toEqual({ type: 'final', text: 'finished' });
    const bodies = standIn.requests.map(
      (r) => r.body as { tool_choice?: unknown; messages: { content: unknown }[] },
    );
    // A14: prompt_cache_key goes to OpenAI's own API only; a local server may refuse fields it does not know
    expect(bodies[0]).not.toHaveProperty('prompt_cache_key');
    expect(bodies.map((b) => b.tool_choice ?? null)).toEqual([
      null,
      null,
      null,
      null,
      'none',
      null,
      null,
      null,
    ]);
    expect(events).toContainEqual({ type: 'compacted', rounds: 3 });
    expect(JSON.stringify(bodies[4]?.messages.at(-1))).toContain(
      'about to be removed from this conversation',
    );
    // after it: system, prompt, summary, the kept round and the rounds since
    expect(JSON.stringify(bodies[5]?.messages[2])).toContain('Read f0 to f2.');
    expect(bodies[5]?.messages).toHaveLength(5);
    expect(bodies[7]?.messages).toHaveLength(9);
    expect(events.filter((e) => e.type === 'text')).toEqual([{ type: 'text', delta: 'finished' }]);
    expect(checkpoints.at(-1)).toMatchObject({ summary: 'Read f0 to f2.', rounds: 6 });
    expect(checkpoints.at(-1)?.exchanges).toHaveLength(3);
  });
});
