import { OpenAiRunner, type OpenAiRunnerOptions } from '../../../src/adapters/runners/openai-runner';
import { INTERRUPTED_CALL, prepareResume } from '../../../src/core/engine/turn/turn-checkpoints';
import type { TurnCheckpoint } from '../../../src/core/ports/run-checkpoints';
import type { RunnerRequest } from '../../../src/core/ports/runner';
import { pathTool, recordingTools } from '../../support/recording-tools';
import { collectEvents, runnerRequest, testAgent } from '../../support/runner-request';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const API_KEY = 'sk-openai-test-SECRET-loop';

describe('OpenAiRunner tool loop against the validating stand-in (A9)', () => {
  let standIn: OpenAiStandIn;
  const runner = (options: Partial<OpenAiRunnerOptions> = {}) =>
    new OpenAiRunner({
      baseUrl: standIn.baseUrl,
      apiKey: API_KEY,
      defaultModel: 'llama3.1',
      maxRetries: 0,
      ...options,
    });
  const request = (overrides: Partial<RunnerRequest> = {}) =>
    runnerRequest({ agent: testAgent(), system: 'You are engineer.', prompt: 'Fix it.' }, overrides);

  beforeEach(async () => {
    standIn = await OpenAiStandIn.start({ apiKey: API_KEY });
  });
  afterEach(async () => {
    await standIn.close();
  });

  it('T2: checkpoints before each call; resumed with the second call in flight, it answers that call as interrupted and runs nothing again', async () => {
    const tools = recordingTools([pathTool('read_file'), pathTool('list_files')]);
    standIn.script(
      {
        kind: 'stream',
        deltas: [],
        toolCalls: [
          { name: 'list_files', arguments: { path: '.' } },
          { name: 'read_file', arguments: { path: 'README.md' } },
        ],
      },
      { kind: 'stream', deltas: ['First run done.'] },
      { kind: 'stream', deltas: ['Resumed.'] },
    );
    const saved: TurnCheckpoint[] = [];
    const checkpoint = async (state: TurnCheckpoint) => {
      saved.push(structuredClone(state));
    };
    await collectEvents(runner().run(request({ tools, checkpoint })));
    // The start, before each of the two calls, after the round.
    expect(saved.map((c) => [c.rounds, c.round?.outcomes.length ?? null, c.round?.inFlight ?? null])).toEqual(
      [
        [0, null, null],
        [0, 0, true],
        [0, 1, true],
        [1, null, null],
      ],
    );
    // A crash while read_file ran: the checkpoint written before it, as the engine resumes it.
    const stored = saved[2] as TurnCheckpoint;
    const { resumeFrom } = prepareResume({
      runId: 'r',
      workspaceId: 'w',
      checkpoint: stored,
      step: 3,
      statusCardRef: null,
      approvalId: null,
      awaits: null,
      parkedAt: null,
      updatedAt: new Date(),
    });
    const again = recordingTools([pathTool('read_file'), pathTool('list_files')]);
    const events = await collectEvents(runner().run(request({ tools: again, resumeFrom })));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'Resumed.' });
    expect(again.calls).toEqual([]);
    expect(standIn.requests).toHaveLength(3);
    expect(standIn.requests[2]?.messages?.slice(3)).toEqual([
      { role: 'tool', tool_call_id: 'call_standin1_0', content: 'ran list_files' },
      { role: 'tool', tool_call_id: 'call_standin1_1', content: INTERRUPTED_CALL },
    ]);
  });

  it('offers functions, runs each tool call, answers with tool messages and loops until the model stops', async () => {
    const tools = recordingTools([pathTool('read_file'), pathTool('list_files')]);
    standIn.script(
      {
        kind: 'stream',
        deltas: ['Looking.'],
        toolCalls: [
          { name: 'list_files', arguments: { path: '.' } },
          { name: 'read_file', arguments: { path: 'README.md' } },
        ],
      },
      { kind: 'stream', deltas: [], toolCalls: [{ name: 'read_file', arguments: { path: 'b.ts' } }] },
      { kind: 'stream', deltas: ['All ', 'done.'] },
    );
    const events = await collectEvents(runner().run(request({ tools })));
    expect(events.at(-1)).toEqual({ type: 'final', text: 'All done.' });
    expect(tools.calls.map((c) => [c.callId, c.name, c.input])).toEqual([
      ['call_standin1_0', 'list_files', { path: '.' }],
      ['call_standin1_1', 'read_file', { path: 'README.md' }],
      ['call_standin2_0', 'read_file', { path: 'b.ts' }],
    ]);
    expect(
      events.filter((e) => e.type === 'tool_end').map((e) => e.type === 'tool_end' && e.summary),
    ).toEqual(['list_files: .', 'read_file: README.md', 'read_file: b.ts']);
    expect(standIn.requests).toHaveLength(3);
    expect((standIn.requests[0]?.body as { tools?: unknown[] } | undefined)?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'The read_file tool.',
          parameters: pathTool('x').inputSchema,
        },
      },
      {
        type: 'function',
        function: {
          name: 'list_files',
          description: 'The list_files tool.',
          parameters: pathTool('x').inputSchema,
        },
      },
    ]);
    expect(standIn.requests[1]?.messages?.slice(2)).toEqual([
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          {
            id: 'call_standin1_0',
            type: 'function',
            function: { name: 'list_files', arguments: '{"path":"."}' },
          },
          {
            id: 'call_standin1_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"README.md"}' },
          },
        ],
      },
      { role: 'tool', content: 'ran list_files', tool_call_id: 'call_standin1_0' },
      { role: 'tool', content: 'ran read_file', tool_call_id: 'call_standin1_1' },
    ]);
  });

  it('unparsable arguments are answered with a sentence and not run', async () => {
    const tools = recordingTools([pathTool('read_file')]);
    standIn.script(
      { kind: 'stream', deltas: [], toolCalls: [{ name: 'read_file', arguments: '{"path": ' }] },
      { kind: 'stream', deltas: ['ok'] },
    );
    const events = await collectEvents(runner().run(request({ tools })));
    expect(tools.calls).toEqual([]);
    expect(standIn.requests[1]?.messages?.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_standin1_0',
      content: 'The tool input was not valid JSON; call the tool again with a JSON object.',
    });
    expect(events.at(-1)).toEqual({ type: 'final', text: 'ok' });
  });

  it('the stand-in refuses a tool message that answers no call, an unanswered call and an invalid schema', async () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${standIn.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify({ model: 'm', stream: true, ...body }),
      }).then(async (res) => ({ status: res.status, text: await res.text() }));
    const stray = await post({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: 'call_x', content: 'x' },
      ],
    });
    expect(stray.status).toBe(400);
    expect(stray.text).toContain(
      "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
    );
    const unanswered = await post({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'user', content: 'and?' },
      ],
    });
    expect(unanswered.text).toContain('The following tool_call_ids did not have response messages: call_a');
    const schema = await post({
      messages: [{ role: 'user', content: 'go' }],
      tools: [
        { type: 'function', function: { name: 'f', parameters: { type: 'object', required: 'path' } } },
      ],
    });
    expect(schema.status).toBe(400);
    expect(schema.text).toContain("Invalid schema for function 'f'");
  });

  it('429 is retried with backoff, then reported as a sentence', async () => {
    standIn.script(
      {
        kind: 'error',
        status: 429,
        message: 'Rate limit reached',
        type: 'requests',
        code: 'rate_limit_exceeded',
        retryAfterMs: 10,
      },
      { kind: 'stream', deltas: ['made it'] },
    );
    const recovered = await collectEvents(runner({ maxRetries: 2 }).run(request()));
    expect(recovered.at(-1)).toEqual({ type: 'final', text: 'made it' });
    for (let i = 0; i < 3; i++) {
      standIn.script({
        kind: 'error',
        status: 429,
        message: 'Rate limit reached',
        type: 'requests',
        retryAfterMs: 10,
      });
    }
    const failed = await collectEvents(runner({ maxRetries: 2 }).run(request()));
    expect(standIn.requests).toHaveLength(5);
    expect(failed.at(-1)).toEqual({
      type: 'error',
      message: `engineer could not get an answer from the model server at ${standIn.baseUrl}: it answered 429: Rate limit reached (gave up after 3 attempts with backoff).`,
    });
  });

  it('A9: a completion contract nudges once with a user message, then fails the turn', async () => {
    const contract = { unmet: () => 'Call submit_plan now.', failure: 'no plan was submitted.' };
    const tools = recordingTools([pathTool('submit_plan')], undefined, contract);
    standIn.script({ kind: 'stream', deltas: ['A plan.'] }, { kind: 'stream', deltas: [] });
    const events = await collectEvents(runner().run(request({ tools })));
    expect(events.at(-1)).toEqual({ type: 'error', message: 'no plan was submitted.' });
    expect(standIn.requests[1]?.messages?.slice(2)).toEqual([
      { role: 'assistant', content: 'A plan.' },
      { role: 'user', content: 'Call submit_plan now.' },
    ]);
  });
});
