import { OpenAiRunner, type OpenAiRunnerOptions } from '../../../src/adapters/runners/openai-runner';
import type { AgentRecord } from '../../../src/core/model/records';
import type { RunnerEvent, RunnerRequest } from '../../../src/core/ports/runner';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const KEY = 'sk-test-0123456789abcdef-SECRET';

const agent = (overrides: Partial<AgentRecord> = {}): AgentRecord =>
  testAgent({ modelId: 'llama3.1', ...overrides });

const request = (overrides: Partial<RunnerRequest> = {}): RunnerRequest =>
  runnerRequest({ agent: agent(), system: 'You are engineer.', prompt: 'Say hello.' }, overrides);

const collect = collectEvents;

const errorOf = (events: RunnerEvent[]): string => {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error, got ${JSON.stringify(events)}`);
  return last.message;
};

describe('OpenAiRunner against an OpenAI-compatible stand-in (A9, A10)', () => {
  let standIn: OpenAiStandIn;
  const runner = (options: Partial<OpenAiRunnerOptions> = {}): OpenAiRunner =>
    new OpenAiRunner({
      baseUrl: standIn.baseUrl,
      apiKey: KEY,
      defaultModel: undefined,
      maxRetries: 0,
      ...options,
    });

  beforeEach(async () => {
    standIn = await OpenAiStandIn.start({ apiKey: KEY, models: ['llama3.1', 'qwen2.5'] });
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('streams text deltas, then one final with the whole text', async () => {
    standIn.script({ kind: 'stream', deltas: ['Hel', 'lo, ', 'world.'] });
    const events = await collect(runner().run(request()));
    expect(events).toEqual([
      { type: 'thinking' },
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo, ' },
      { type: 'text', delta: 'world.' },
      // O3: asked for with stream_options.include_usage; cached prompt tokens apart.
      {
        type: 'usage',
        model: 'llama3.1',
        usage: { inputTokens: 16, outputTokens: 3, cacheReadTokens: 4, cacheWriteTokens: 0 },
      },
      { type: 'final', text: 'Hello, world.' },
    ]);
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      authorization: `Bearer ${KEY}`,
      model: 'llama3.1',
      messages: [
        { role: 'system', content: 'You are engineer.' },
        { role: 'user', content: 'Say hello.' },
      ],
      body: expect.objectContaining({ stream: true }),
    });
  });

  it("uses the agent's model over the default, and the default when the agent names none (A10)", async () => {
    const withDefault = runner({ defaultModel: 'qwen2.5' });
    await collect(withDefault.run(request({ agent: agent({ modelId: 'llama3.1' }) })));
    await collect(withDefault.run(request({ agent: agent({ modelId: null }) })));
    expect(standIn.requests.map((r) => r.model)).toEqual(['llama3.1', 'qwen2.5']);
  });

  it("asks for the agent's model when neither the agent nor the default names one, without a request", async () => {
    const events = await collect(runner().run(request({ agent: agent({ modelId: null }) })));
    expect(events).toHaveLength(1);
    expect(errorOf(events)).toMatch(/^engineer cannot answer: no model is chosen\. Set the agent's `model`/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('says how to configure a server when neither base URL nor key is set, without a request (A10)', async () => {
    const events = await collect(
      new OpenAiRunner({ baseUrl: undefined, apiKey: undefined, defaultModel: 'llama3.1' }).run(request()),
    );
    expect(events).toHaveLength(1);
    const message = errorOf(events);
    expect(message).toContain('Set OPENAI_BASE_URL');
    expect(message).toContain('http://localhost:11434/v1');
    expect(message).toContain('OPENAI_API_KEY');
    expect(standIn.requests).toHaveLength(0);
  });

  it('works with a key-less local server given only a base URL', async () => {
    const local = await OpenAiStandIn.start();
    try {
      local.script({ kind: 'stream', deltas: ['ok'] });
      const events = await collect(
        new OpenAiRunner({ baseUrl: local.baseUrl, apiKey: undefined, defaultModel: 'llama3.1' }).run(
          request({ agent: agent({ modelId: null }) }),
        ),
      );
      expect(events.at(-1)).toEqual({ type: 'final', text: 'ok' });
      expect(local.requests[0]?.authorization).toMatch(/^Bearer \S+$/);
    } finally {
      await local.close();
    }
  });

  it('turns a 401 into a readable sentence with the status and never the key', async () => {
    const wrongKey = 'sk-wrong-key-9876543210-SECRET';
    const events = await collect(runner({ apiKey: wrongKey }).run(request()));
    const message = errorOf(events);
    expect(message).toMatch(
      /^engineer could not get an answer from the model server at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(message).toContain('401');
    expect(message).toContain('Incorrect API key provided');
    expect(message).toContain('Check OPENAI_API_KEY');
    expect(message).not.toContain(wrongKey);
    expect(events.some((e) => e.type === 'final')).toBe(false);
  });

  it('turns a 404 for an unknown model into a sentence naming the model', async () => {
    const events = await collect(runner().run(request({ agent: agent({ modelId: 'gpt-nope' }) })));
    const message = errorOf(events);
    expect(message).toContain('404');
    expect(message).toContain('The model `gpt-nope` does not exist');
    expect(message).toContain("Check the agent's `model`");
  });

  it('redacts the key when a server echoes it in an error', async () => {
    standIn.script({ kind: 'error', status: 500, message: `upstream refused key ${KEY}` });
    const message = errorOf(await collect(runner().run(request())));
    expect(message).toContain('500');
    expect(message).toContain('upstream refused key [redacted]');
    expect(message).not.toContain(KEY);
  });

  it('says the server could not be reached when nothing listens at the base URL', async () => {
    const gone = standIn.baseUrl;
    await standIn.close();
    const message = errorOf(await collect(runner({ baseUrl: gone }).run(request())));
    expect(message).toContain(`model server at ${gone}`);
    expect(message).toContain('could not be reached (ECONNREFUSED)');
    standIn = await OpenAiStandIn.start();
  });

  it('ends promptly without a final when the turn is aborted mid-stream', async () => {
    standIn.script({ kind: 'stream', deltas: ['partial'], hold: true });
    const controller = new AbortController();
    const events: RunnerEvent[] = [];
    const started = Date.now();
    for await (const event of runner().run(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(events).toEqual([{ type: 'thinking' }, { type: 'text', delta: 'partial' }]);
    await waitFor(() => standIn.disconnects === 1);
  });

  it('never yields the API key in any event', async () => {
    standIn.script(
      { kind: 'stream', deltas: ['fine'] },
      { kind: 'error', status: 503, message: 'overloaded' },
    );
    const events = [
      ...(await collect(runner().run(request()))),
      ...(await collect(runner().run(request()))),
      ...(await collect(runner({ apiKey: `${KEY}-x` }).run(request()))),
      ...(await collect(runner().run(request({ agent: agent({ modelId: 'unknown' }) })))),
    ];
    expect(events.filter((e) => e.type === 'error')).toHaveLength(3);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});

describe('OpenAiStandIn validates requests like a real server', () => {
  it('refuses a missing key, a bad body and a non-streamed request with the OpenAI error JSON', async () => {
    const standIn = await OpenAiStandIn.start({ apiKey: KEY });
    try {
      const post = async (body: unknown, authorization = `Bearer ${KEY}`) => {
        const response = await fetch(`${standIn.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { error: { message: string } } };
      };
      const good = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true };
      expect((await post(good, 'Bearer nope')).status).toBe(401);
      expect((await post({ ...good, model: 7 })).status).toBe(400);
      expect((await post({ ...good, messages: [] })).status).toBe(400);
      expect((await post({ ...good, messages: [{ role: 'robot', content: 'hi' }] })).status).toBe(400);
      const notStreamed = await post({ ...good, stream: false });
      expect(notStreamed.status).toBe(400);
      expect(notStreamed.body.error.message).toContain('stream');
    } finally {
      await standIn.close();
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 2 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
