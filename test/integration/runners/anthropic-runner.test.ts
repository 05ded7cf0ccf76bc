import { ANTHROPIC_THINKING_BUDGETS } from '../../../src/adapters/runners/anthropic-effort';
import { AnthropicRunner, type AnthropicRunnerOptions } from '../../../src/adapters/runners/anthropic-runner';
import type { AgentRecord } from '../../../src/core/model/records';
import type { RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import { NO_TOOLS } from '../../../src/core/ports/turn-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { AnthropicStandIn, type RecordedRequest } from '../../support/stand-ins/anthropic-stand-in';

const API_KEY = 'sk-ant-test-SECRET-5b1f0c';
// A model the SDK does not call deprecated (it console.warns on every call to one).
const DEFAULT_MODEL = 'claude-sonnet-4-6';

const agent = (overrides: Partial<AgentRecord> = {}): AgentRecord => testAgent({ ...overrides });

const request = (overrides: Partial<RunnerRequest> = {}): RunnerRequest =>
  runnerRequest(
    { agent: agent(), system: 'You are engineer. Answer briefly.', prompt: 'What is 2 + 2?' },
    overrides,
  );

const collect = collectEvents;

const bodyOf = (recorded: RecordedRequest | undefined): Record<string, unknown> => {
  if (recorded === undefined || typeof recorded.body !== 'object' || recorded.body === null) {
    throw new Error('no request recorded');
  }
  return recorded.body as Record<string, unknown>;
};

describe('AnthropicRunner against the Messages API stand-in (A9, A10)', () => {
  let standIn: AnthropicStandIn;
  const runner = (options: Partial<AnthropicRunnerOptions> = {}) =>
    new AnthropicRunner({
      apiKey: API_KEY,
      baseUrl: standIn.url,
      defaultModel: DEFAULT_MODEL,
      maxRetries: 0,
      ...options,
    });

  /** 'closed' once the stand-in saw the first request's stream closed early, 'still open' after 2 s. */
  const firstStreamClosed = async (): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('still open'), 2000);
    });
    const closed = standIn.requests[0]?.closedEarly.then(() => 'closed');
    try {
      return await Promise.race([closed ?? giveUp, giveUp]);
    } finally {
      clearTimeout(timer);
    }
  };

  beforeEach(async () => {
    standIn = await AnthropicStandIn.start({ apiKey: API_KEY });
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('streams text deltas and ends with the whole text', async () => {
    standIn.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['Two plus two ', 'is ', 'four.'] }],
    });
    const events = await collect(runner().run(request()));
    expect(events).toEqual([
      { type: 'thinking' },
      { type: 'text', delta: 'Two plus two ' },
      { type: 'text', delta: 'is ' },
      { type: 'text', delta: 'four.' },
      // O3: the call's usage as the API reported it (message_start, then message_delta's output).
      {
        type: 'usage',
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'final', text: 'Two plus two is four.' },
    ]);
    expect(standIn.requests).toHaveLength(1);
    const [recorded] = standIn.requests;
    expect(recorded?.status).toBe(200);
    expect(recorded?.headers['anthropic-version']).toEqual(expect.any(String));
    // the key travels as the documented x-api-key header, never as a bearer token
    expect(recorded?.headers['x-api-key']).toBe(API_KEY);
    expect(recorded?.headers.authorization).toBeUndefined();
    expect(bodyOf(recorded)).toEqual({
      model: DEFAULT_MODEL,
      max_tokens: 8192,
      // A14: the system prompt and the newest user message carry cache breakpoints
      system: [
        { type: 'text', text: 'You are engineer. Answer briefly.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'What is 2 + 2?', cache_control: { type: 'ephemeral' } }],
        },
      ],
      stream: true,
    });
  });

  it('A10: uses the default model unless the agent names one', async () => {
    await collect(runner().run(request()));
    await collect(runner().run(request({ agent: agent({ modelId: 'claude-opus-4-1' }) })));
    expect(standIn.requests.map((r) => bodyOf(r).model)).toEqual([DEFAULT_MODEL, 'claude-opus-4-1']);
  });

  it('A4: maps effort to a thinking budget under max_tokens; unknown effort sends no thinking', async () => {
    standIn.reply = () => ({
      kind: 'stream',
      blocks: [
        { type: 'thinking', chunks: ['Let me add ', 'the numbers.'] },
        { type: 'text', chunks: ['Four.'] },
      ],
    });
    const efforts = ['low', 'medium', 'High ', 'extreme'];
    const runs = [];
    for (const effort of efforts)
      runs.push(await collect(runner().run(request({ agent: agent({ effort }) }))));
    expect(standIn.requests.map((r) => [bodyOf(r).max_tokens, bodyOf(r).thinking])).toEqual([
      [8192 + 1024, { type: 'enabled', budget_tokens: ANTHROPIC_THINKING_BUDGETS.low }],
      [8192 + 4096, { type: 'enabled', budget_tokens: 4096 }],
      [8192 + 16000, { type: 'enabled', budget_tokens: 16000 }],
      [8192, undefined],
    ]);
    // thinking at message start and when the thinking block starts; thinking text never reaches the reply
    expect(runs[0]).toEqual([
      { type: 'thinking' },
      { type: 'thinking' },
      { type: 'text', delta: 'Four.' },
      // O3: the call's usage as the API reported it (message_start, then message_delta's output).
      {
        type: 'usage',
        model: 'claude-sonnet-4-6',
        usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      { type: 'final', text: 'Four.' },
    ]);

    // a configured max_tokens is a ceiling: the budget gets at most half of it, or thinking is off
    await collect(runner({ maxTokens: 10000 }).run(request({ agent: agent({ effort: 'high' }) })));
    await collect(runner({ maxTokens: 2000 }).run(request({ agent: agent({ effort: 'low' }) })));
    const [clamped, tooSmall] = standIn.requests.slice(-2).map(bodyOf);
    expect(clamped).toMatchObject({ max_tokens: 10000, thinking: { type: 'enabled', budget_tokens: 5000 } });
    expect(tooSmall).toMatchObject({ max_tokens: 2000 });
    expect(tooSmall?.thinking).toBeUndefined();
    expect(standIn.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('A4, A14: the body is written once a call and sent as written; a tool’s JSON is kept from turn to turn', async () => {
    let written = 0;
    // Frozen, as every built-in tool's schema is (toolSpec); JSON.stringify calls toJSON each time it writes it.
    const inputSchema = Object.freeze({
      type: 'object',
      toJSON() {
        written += 1;
        return { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
      },
    });
    const tools = {
      ...NO_TOOLS,
      specs: [{ name: 'bash', description: 'Runs a command.', inputSchema, access: 'write' as const }],
    };
    for (const prompt of ['first turn', 'second turn', 'third turn'])
      expect((await collect(runner().run(request({ prompt, tools })))).at(-1)?.type).toBe('final');
    expect(written).toBe(1);
    expect(standIn.requests.map((r) => r.headers['content-type'])).toEqual(Array(3).fill('application/json'));
    expect(standIn.requests.map((r) => bodyOf(r).tools)).toEqual(
      Array(3).fill([
        {
          name: 'bash',
          description: 'Runs a command.',
          input_schema: {
            type: 'object',
            properties: { command: { type: 'string' } },
            required: ['command'],
          },
          cache_control: { type: 'ephemeral' },
        },
      ]),
    );
  });

  it('A10: without an api key yields one sentence saying how to configure a model, and sends nothing', async () => {
    const events = await collect(runner({ apiKey: undefined }).run(request()));
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.type).toBe('error');
    const message = event?.type === 'error' ? event.message : '';
    expect(message).toMatch(/^engineer cannot answer: /);
    expect(message).toContain('ANTHROPIC_API_KEY');
    expect(message).toContain('adapter: openai');
    expect(message).toContain('OPENAI_BASE_URL');
    expect(standIn.requests).toHaveLength(0);
  });

  it('turns a 401 into a readable sentence without the key', async () => {
    const events = await collect(runner({ apiKey: 'sk-ant-wrong-SECRET-99' }).run(request()));
    expect(standIn.requests[0]?.status).toBe(401);
    expect(events).toEqual([
      {
        type: 'error',
        message: 'The Anthropic API answered with error 401 (authentication_error): invalid x-api-key',
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('sk-ant-wrong-SECRET-99');
  });

  it('turns a 400 from request validation into a readable sentence', async () => {
    const events = await collect(runner().run(request({ prompt: '' })));
    expect(standIn.requests[0]?.status).toBe(400);
    expect(events).toEqual([
      {
        type: 'error',
        message:
          'The Anthropic API answered with error 400 (invalid_request_error): messages.0.content.0.text: text content blocks must be non-empty',
      },
    ]);
  });

  it('reports an error event in the middle of the stream', async () => {
    standIn.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['Start'] }],
      failWith: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const events = await collect(runner().run(request()));
    expect(events.at(-1)).toEqual({
      type: 'error',
      message: 'The Anthropic API answered with error (overloaded_error): Overloaded',
    });
    expect(events.some((e) => e.type === 'final')).toBe(false);
  });

  it('abort mid-stream ends the iterator promptly without a final, and the server sees the close', async () => {
    standIn.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['partial'] }], hold: true });
    const controller = new AbortController();
    const seen: RunnerEvent[] = [];
    const started = Date.now();
    for await (const event of runner().run(request({ signal: controller.signal }))) {
      seen.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(seen).toEqual([{ type: 'thinking' }, { type: 'text', delta: 'partial' }]);
    await expect(firstStreamClosed()).resolves.toBe('closed');
  });

  it('O3: a turn that stops reading mid-stream (a budget used up) closes the model’s stream, no abort needed', async () => {
    standIn.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['partial'] }], hold: true });
    for await (const event of runner().run(request())) if (event.type === 'text') break;
    await expect(firstStreamClosed()).resolves.toBe('closed');
  });

  it('an already aborted signal yields nothing and sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await collect(runner().run(request({ signal: controller.signal })))).toEqual([]);
    expect(standIn.requests).toHaveLength(0);
  });

  it('never yields the api key, even when the service echoes it', async () => {
    const all: RunnerEvent[] = [];
    standIn.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['fine'] }] });
    all.push(...(await collect(runner().run(request()))));
    standIn.reply = () => ({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      message: `key ${API_KEY} is not allowed for this model`,
    });
    all.push(...(await collect(runner().run(request()))));
    standIn.reply = () => ({
      kind: 'stream',
      blocks: [{ type: 'text', chunks: ['x'] }],
      failWith: { type: 'api_error', message: `internal error for ${API_KEY}` },
    });
    all.push(...(await collect(runner().run(request()))));
    all.push(...(await collect(runner({ apiKey: undefined }).run(request()))));
    const errors = all.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(3);
    expect(errors[0]).toEqual({
      type: 'error',
      message:
        'The Anthropic API answered with error 400 (invalid_request_error): key [redacted] is not allowed for this model',
    });
    expect(JSON.stringify(all)).not.toContain(API_KEY);
  });

  it('the stand-in refuses what the real API refuses', async () => {
    const valid = {
      model: DEFAULT_MODEL,
      max_tokens: 2048,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    };
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${standIn.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text };
    };
    const withKey = { 'x-api-key': API_KEY };
    expect((await post(valid, { authorization: `Bearer ${API_KEY}` })).status).toBe(401);
    const refusals = [
      { ...valid, max_tokens: 0 },
      { ...valid, model: 7 },
      { ...valid, messages: [] },
      { ...valid, messages: [{ role: 'assistant', content: 'hi' }] },
      {
        ...valid,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      },
      { ...valid, system: 42 },
      { ...valid, thinking: { type: 'enabled', budget_tokens: 512 } },
      { ...valid, thinking: { type: 'enabled', budget_tokens: 2048 } },
      { ...valid, unexpected: true },
    ];
    for (const body of refusals) {
      const { status, text } = await post(body, withKey);
      expect(status).toBe(400);
      expect(JSON.parse(text)).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
    }
    const accepted = await post({ ...valid, thinking: { type: 'enabled', budget_tokens: 1024 } }, withKey);
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('event: message_stop');
  });
});
