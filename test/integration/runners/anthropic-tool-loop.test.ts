import { AnthropicRunner, type AnthropicRunnerOptions } from '../../../src/adapters/runners/anthropic-runner';
import type { AgentRecord } from '../../../src/core/model/records';
import type { TurnCheckpoint } from '../../../src/core/ports/run-checkpoints';
import type { RunnerRequest } from '../../../src/core/ports/runner';
import { pathTool, recordingTools } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';

const API_KEY = 'sk-ant-test-SECRET-loop-77';

type Body = { messages: { role: string; content: unknown }[]; tools?: { name: string }[] };
const bodyAt = (standIn: AnthropicStandIn, index: number): Body => standIn.requests[index]?.body as Body;

describe('AnthropicRunner tool loop against the validating stand-in (A9)', () => {
  let standIn: AnthropicStandIn;
  const runner = (options: Partial<AnthropicRunnerOptions> = {}) =>
    new AnthropicRunner({
      apiKey: API_KEY,
      baseUrl: standIn.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
      ...options,
    });
  const request = (overrides: Partial<RunnerRequest> & { agent?: AgentRecord } = {}) =>
    runnerRequest(
      { agent: overrides.agent ?? testAgent(), system: 'You are engineer.', prompt: 'Fix it.' },
      overrides,
    );

  beforeEach(async () => {
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY, promptCache: true });
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('offers the specs, runs each tool_use, sends the results back and loops until the model stops', async () => {
    const tools = recordingTools([pathTool('read_file'), pathTool('list_files')]);
    standIn.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'text', chunks: ['Let me look.'] },
          { type: 'tool_use', name: 'list_files', input: { path: '.' } },
          { type: 'tool_use', name: 'read_file', input: { path: 'README.md' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'read_file', input: { path: 'src/a.ts' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['All ', 'fixed.'] }] },
    );
    const events = await collectEvents(runner().run(request({ tools })));
    expect(standIn.requests.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(tools.calls.map((c) => [c.name, c.input])).toEqual([
      ['list_files', { path: '.' }],
      ['read_file', { path: 'README.md' }],
      ['read_file', { path: 'src/a.ts' }],
    ]);
    // P9: one start and one end per call, each a one-line summary
    expect(events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end')).toEqual([
      { type: 'tool_start', callId: 'toolu_standin_1_1', tool: 'list_files', summary: '.' },
      { type: 'tool_end', callId: 'toolu_standin_1_1', ok: true, summary: 'list_files: .' },
      { type: 'tool_start', callId: 'toolu_standin_1_2', tool: 'read_file', summary: 'README.md' },
      { type: 'tool_end', callId: 'toolu_standin_1_2', ok: true, summary: 'read_file: README.md' },
      { type: 'tool_start', callId: 'toolu_standin_2_0', tool: 'read_file', summary: 'src/a.ts' },
      { type: 'tool_end', callId: 'toolu_standin_2_0', ok: true, summary: 'read_file: src/a.ts' },
    ]);
    expect(events.at(-1)).toEqual({ type: 'final', text: 'All fixed.' });
    expect(bodyAt(standIn, 0).tools?.map((t) => t.name)).toEqual(['read_file', 'list_files']);
    // the second request repeats the assistant message and answers both ids in one user message
    expect(bodyAt(standIn, 1).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_standin_1_1', name: 'list_files', input: { path: '.' } },
          { type: 'tool_use', id: 'toolu_standin_1_2', name: 'read_file', input: { path: 'README.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_standin_1_1', content: 'ran list_files' },
          // A14: the newest block carries the cache breakpoint the next request reads up to
          {
            type: 'tool_result',
            tool_use_id: 'toolu_standin_1_2',
            content: 'ran read_file',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
  });

  it('a failed call goes back as is_error with its sentence, and the row says why', async () => {
    const tools = recordingTools([pathTool('read_file')], () => ({
      ok: false,
      output: 'No such file: x.md',
    }));
    standIn.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'read_file', input: { path: 'x.md' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['It is missing.'] }] },
    );
    const events = await collectEvents(runner().run(request({ tools })));
    expect(events).toContainEqual({
      type: 'tool_end',
      callId: 'toolu_standin_1_0',
      ok: false,
      summary: 'read_file: x.md — No such file: x.md',
    });
    expect(bodyAt(standIn, 1).messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_standin_1_0',
          content: 'No such file: x.md',
          is_error: true,
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
    expect(events.at(-1)).toEqual({ type: 'final', text: 'It is missing.' });
  });

  it('with thinking on, the thinking block and its signature are sent back before the tool_use', async () => {
    const tools = recordingTools([pathTool('read_file')]);
    standIn.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'thinking', chunks: ['I should read it.'] },
          { type: 'tool_use', name: 'read_file', input: { path: 'a' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['done'] }] },
    );
    const events = await collectEvents(runner().run(request({ tools, agent: testAgent({ effort: 'low' }) })));
    expect(standIn.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(events.at(-1)).toEqual({ type: 'final', text: 'done' });
    const content = bodyAt(standIn, 1).messages[1]?.content as { type: string }[];
    expect(content[0]).toEqual({ type: 'thinking', thinking: 'I should read it.', signature: 'c2ln' });
  });

  it('the stand-in refuses what the real API refuses: an unanswered tool_use, a stray tool_result, a bad schema', async () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${standIn.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': API_KEY,
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({ model: 'm', max_tokens: 10, stream: true, ...body }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }));
    const call = { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } };
    const unanswered = await post({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [call] },
        { role: 'user', content: 'and?' },
      ],
    });
    expect(unanswered).toEqual({
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining(
            '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1',
          ),
        },
      },
    });
    const stray = await post({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [call] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' },
            { type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' },
          ],
        },
      ],
    });
    expect(JSON.stringify(stray.body)).toContain(
      'unexpected `tool_use_id` found in `tool_result` blocks: toolu_9',
    );
    const badSchema = await post({
      messages: [{ role: 'user', content: 'go' }],
      tools: [
        {
          name: 'x',
          description: 'x',
          input_schema: { type: 'object', properties: { a: { type: 'nope' } } },
        },
      ],
    });
    expect(badSchema.status).toBe(400);
    expect(JSON.stringify(badSchema.body)).toContain('JSON schema is invalid');
    const alternation = await post({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(JSON.stringify(alternation.body)).toContain('roles must alternate');
  });

  it('A15: a turn that outgrows contextSize is compacted once: a summary request without tool calls, then the turn goes on from prompt + summary + the latest rounds', async () => {
    const big = 'x'.repeat(4000); // about 1000 tokens per result
    const tools = recordingTools([pathTool('read_file')], () => ({ ok: true, output: big }));
    const checkpoints: TurnCheckpoint[] = [];
    let reads = 0;
    standIn.reply = (body) => {
      if (body.tool_choice !== undefined)
        return { kind: 'stream', blocks: [{ type: 'text', chunks: ['Read f0 to f3: all x.'] }] };
      if (reads === 6) return { kind: 'stream', blocks: [{ type: 'text', chunks: ['read them all'] }] };
      reads += 1;
      return {
        kind: 'stream',
        blocks: [{ type: 'tool_use', name: 'read_file', input: { path: `f${reads - 1}` } }],
      };
    };
    const agent = testAgent({ contextSize: 5000 });
    const events = await collectEvents(
      runner().run(
        request({ tools, agent, checkpoint: async (state) => void checkpoints.push(structuredClone(state)) }),
      ),
    );
    expect(events.at(-1)).toEqual({ type: 'final', text: 'read them all' });
    expect(standIn.requests.every((r) => r.status === 200)).toBe(true);
    const bodies = standIn.requests.map((r) => r.body as Body & { tool_choice?: unknown });
    const summaries = bodies.flatMap((b, i) => (b.tool_choice === undefined ? [] : [i]));
    // once, not one round dropped per request
    expect(summaries).toHaveLength(1);
    const at = summaries[0] as number;
    expect(bodies[at]?.tool_choice).toEqual({ type: 'none' });
    expect(JSON.stringify(bodies[at]?.messages.at(-1))).toContain(
      'about to be removed from this conversation',
    );
    // the summary's words are not part of the reply, and the card is told
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual([
      'read them all',
    ]);
    expect(events).toContainEqual({ type: 'compacted', rounds: expect.any(Number) });
    const after = bodies[at + 1] as Body;
    expect(JSON.stringify(after.messages[0])).toContain('Read f0 to f3: all x.');
    // every request before the compaction kept every round; after it, only the latest ones
    for (const [i, body] of bodies.entries()) {
      if (i < at) expect(body.messages).toHaveLength(1 + 2 * i);
    }
    expect(after.messages.length).toBeLessThan(bodies[at]?.messages.length ?? 0);
    expect(JSON.stringify(after.messages.at(-1))).toContain(big);
    // T2: the summary is part of the checkpoint
    expect(checkpoints.at(-1)?.summary).toBe('Read f0 to f3: all x.');
    expect(checkpoints.at(-1)?.exchanges.length).toBeLessThan(6);
  });

  it('A15, T2: a turn resumed from a compacted checkpoint goes on from its summary', async () => {
    const tools = recordingTools([pathTool('read_file')]);
    standIn.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['done'] }] });
    const resumeFrom: TurnCheckpoint = {
      format: 'anthropic',
      exchanges: [
        [
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'f9' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'nine' }] },
        ],
      ],
      round: null,
      rounds: 9,
      nudged: false,
      summary: 'Read f0 to f8; f4 had the bug.',
    };
    const events = await collectEvents(runner().run(request({ tools, resumeFrom })));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'done' });
    const [head, assistant] = bodyAt(standIn, 0).messages;
    expect(JSON.stringify(head)).toContain('Read f0 to f8; f4 had the bug.');
    expect(JSON.stringify(assistant)).toContain('toolu_9');
    expect(bodyAt(standIn, 0).messages).toHaveLength(3);
  });

  it('A9: a completion contract nudges once, then fails the turn with its sentence', async () => {
    let submitted = false;
    const contract = {
      unmet: () => (submitted ? undefined : 'You have not called submit_plan yet. Call it with your plan.'),
      failure: 'the plan-mode turn ended without submit_plan.',
    };
    const tools = recordingTools(
      [pathTool('submit_plan')],
      (call) => {
        submitted = call.name === 'submit_plan';
        return { ok: true, output: 'Plan submitted.' };
      },
      contract,
    );
    standIn.script(
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Here is a plan.'] }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Still no tool.'] }] },
    );
    const failed = await collectEvents(runner().run(request({ tools })));
    expect(failed.at(-1)).toEqual({
      type: 'error',
      message: 'the plan-mode turn ended without submit_plan.',
    });
    expect(bodyAt(standIn, 1).messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Here is a plan.' }] },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'You have not called submit_plan yet. Call it with your plan.',
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);

    standIn.script(
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Plan ready.'] }] },
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'submit_plan', input: { path: 'plan.md' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Submitted.'] }] },
    );
    const nudged = await collectEvents(runner().run(request({ tools })));
    expect(nudged.at(-1)).toEqual({ type: 'final', text: 'Submitted.' });
  });

  it('429 and 529 are retried with backoff, then reported as a sentence', async () => {
    standIn.script(
      { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfterMs: 10 },
      { kind: 'error', status: 429, type: 'rate_limit_error', message: 'Rate limited', retryAfterMs: 10 },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['made it'] }] },
    );
    const recovered = await collectEvents(runner({ maxRetries: 2 }).run(request()));
    expect(recovered.at(-1)).toEqual({ type: 'final', text: 'made it' });
    expect(standIn.requests.map((r) => r.status)).toEqual([529, 429, 200]);

    for (let i = 0; i < 3; i++) {
      standIn.script({
        kind: 'error',
        status: 529,
        type: 'overloaded_error',
        message: 'Overloaded',
        retryAfterMs: 10,
      });
    }
    const failed = await collectEvents(runner({ maxRetries: 2 }).run(request()));
    expect(standIn.requests).toHaveLength(6);
    expect(failed).toEqual([
      {
        type: 'error',
        message:
          'The Anthropic API answered with error 529 (overloaded_error): Overloaded (gave up after 3 attempts with backoff)',
      },
    ]);
  });

  it('a runaway loop stops after maxToolRounds with a sentence', async () => {
    const tools = recordingTools([pathTool('read_file')]);
    standIn.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'tool_use', name: 'read_file', input: { path: 'a' } }],
    });
    const events = await collectEvents(runner({ maxToolRounds: 2 }).run(request({ tools })));
    expect(tools.calls).toHaveLength(2);
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'stopped after 2 rounds of tool calls without an answer.',
    });
  });

  it('an abort while a tool runs ends the turn quietly: no final, no further request', async () => {
    const controller = new AbortController();
    const tools = recordingTools([pathTool('read_file')]);
    tools.call = async (_call, signal) => {
      controller.abort();
      return { ok: false, output: signal.aborted ? 'stopped' : 'not stopped' };
    };
    standIn.script({
      kind: 'stream',
      blocks: [{ type: 'tool_use', name: 'read_file', input: { path: 'a' } }],
    });
    const events = await collectEvents(runner().run(request({ tools, signal: controller.signal })));
    expect(events.some((e) => e.type === 'final' || e.type === 'error')).toBe(false);
    expect(standIn.requests).toHaveLength(1);
  });

  it('an overloaded_error event inside a stream that showed nothing yet is retried too', async () => {
    standIn.script(
      { kind: 'stream', blocks: [], failWith: { type: 'overloaded_error', message: 'Overloaded' } },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['second time lucky'] }] },
    );
    const events = await collectEvents(runner({ maxRetries: 1 }).run(request()));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'second time lucky' });
    expect(standIn.requests).toHaveLength(2);
  });
});
