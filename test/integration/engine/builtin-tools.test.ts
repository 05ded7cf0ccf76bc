import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import { createLogger } from '../../../src/app/logger';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { Runner } from '../../../src/core/ports/runner';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  type EngineSetup,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';

const ANTHROPIC_KEY = 'sk-ant-api03-ENGINE-TOOLS-SECRET-8f2d';
const OPENAI_KEY = 'sk-proj-ENGINE-TOOLS-OPENAI-SECRET-1a7e';
const DB_PASSWORD = 'pg-password-ENGINE-55c1';
const SLACK_TOKEN = 'xoxb-ENGINE-TOOLS-slack-0042';
const SECRETS = [ANTHROPIC_KEY, OPENAI_KEY, DB_PASSWORD, SLACK_TOKEN];

/** The service's configuration and environment as production would see them, secrets included. */
const config = {
  models: {
    anthropicApiKey: ANTHROPIC_KEY,
    anthropicBaseUrl: undefined,
    defaultModel: 'claude-sonnet-4-6',
    openaiBaseUrl: undefined,
    openaiApiKey: OPENAI_KEY,
  },
  databaseUrl: `postgres://summon:${DB_PASSWORD}@127.0.0.1:5432/summon`,
  redisUrl: undefined,
};
const env = {
  ...process.env,
  ANTHROPIC_API_KEY: ANTHROPIC_KEY,
  OPENAI_API_KEY: OPENAI_KEY,
  DATABASE_URL: config.databaseUrl,
  SLACK_BOT_TOKEN: SLACK_TOKEN,
};

describe.each(ENGINE_SETUPS)('A9 built-in tools through the terminal on $name', (setup: EngineSetup) => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;
  let openai: OpenAiStandIn;
  let logs: string;

  const open = async (runner: Runner) => {
    const logStream = new PassThrough();
    logs = '';
    logStream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    h = await openEngineHarness(
      setup,
      runner,
      {},
      {
        tools: createTurnTools(env, {}),
        logger: createLogger({ level: 'debug', destination: logStream }),
      },
    );
  };
  const claude = (options: { apiKey?: string | undefined; maxRetries?: number } = {}) =>
    new AnthropicRunner({
      apiKey: 'apiKey' in options ? options.apiKey : ANTHROPIC_KEY,
      baseUrl: anthropic.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: options.maxRetries ?? 0,
    });
  const statusRows = () =>
    h
      .thread(1)
      .flatMap((e) =>
        e.kind === 'posted' && e.message.content.kind === 'status' ? e.message.content.card.rows : [],
      );
  type Body = { messages: unknown[]; tools: { name: string; description: string }[] };
  const bodyOf = (standIn: AnthropicStandIn, index: number): Body => {
    const body = standIn.requests[index]?.body;
    if (body === undefined) throw new Error(`no request ${index}`);
    return body as Body;
  };
  const toolResults = (standIn: AnthropicStandIn, index: number): string =>
    JSON.stringify(bodyOf(standIn, index).messages.at(-1));

  /** Waits for a thread line: the failure sentence is posted just after the run is marked failed. */
  const shows = (line: string) =>
    waitFor(async () => h.thread(1).map(describeEntry).includes(line)).then(() => line);

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    openai = await OpenAiStandIn.start({ apiKey: OPENAI_KEY });
  });
  afterEach(async () => {
    await h?.close();
    await anthropic.close();
    await openai.close();
  });

  it('a built-in turn streams text, calls bash and write_file (files really written) and shows a row per call', async () => {
    await open(claude());
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'text', chunks: ['On it.'] },
          { type: 'tool_use', name: 'bash', input: { command: 'echo built > out.txt && cat out.txt' } },
          { type: 'tool_use', name: 'write_file', input: { path: 'notes/plan.md', content: '# Plan\n' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Done: ', 'wrote notes/plan.md.'] }] },
    );
    await h.type('@engineer make the files');
    await h.settled(1);
    const dir = h.agentDir('engineer');
    expect(await readFile(path.join(dir, 'out.txt'), 'utf8')).toBe('built\n');
    expect(await readFile(path.join(dir, 'notes/plan.md'), 'utf8')).toBe('# Plan\n');
    expect(toolResults(anthropic, 1)).toContain('Exit code 0.\\nbuilt\\n');
    expect(statusRows()).toEqual([
      '✓ bash: echo built > out.txt && cat out.txt',
      '✓ write_file: notes/plan.md',
    ]);
    expect(h.thread(1).map(describeEntry)).toEqual([
      'you: @engineer make the files',
      'status(done) engineer',
      'engineer: Done: wrote notes/plan.md.',
    ]);
    // A9: chat mode offers every chat tool; M23, N13: and the agent-to-agent tools; W1: schedule_routine
    const offered = bodyOf(anthropic, 0).tools.map((t) => t.name);
    expect(offered).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'list_files',
      'search',
      'glob',
      'read_skill',
      'send_to_agent',
      'ask_agent',
      'delegate_task',
      'ask_question',
      'answer_question',
      'schedule_routine',
    ]);
  });

  it('the same turn on the OpenAI-compatible runner', async () => {
    await open(
      new OpenAiRunner({
        baseUrl: openai.baseUrl,
        apiKey: OPENAI_KEY,
        defaultModel: 'llama3.1',
        maxRetries: 0,
      }),
    );
    openai.script(
      {
        kind: 'stream',
        deltas: ['On it.'],
        toolCalls: [
          { name: 'bash', arguments: { command: 'echo local > out.txt && cat out.txt' } },
          { name: 'write_file', arguments: { path: 'src/hello.ts', content: 'export const hello = 1;\n' } },
        ],
      },
      { kind: 'stream', deltas: ['Wrote ', 'src/hello.ts.'] },
    );
    await h.type('@engineer make the files');
    await h.settled(1);
    const dir = h.agentDir('engineer');
    expect(await readFile(path.join(dir, 'out.txt'), 'utf8')).toBe('local\n');
    expect(await readFile(path.join(dir, 'src/hello.ts'), 'utf8')).toBe('export const hello = 1;\n');
    expect(openai.requests[1]?.messages?.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Exit code 0.\nlocal\n',
      'Wrote 24 bytes to src/hello.ts.',
    ]);
    expect(statusRows()).toEqual([
      '✓ bash: echo local > out.txt && cat out.txt',
      '✓ write_file: src/hello.ts',
    ]);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Wrote src/hello.ts.');
  });

  it('A9: plan mode hides the write tools, nudges once when submit_plan is missing, then fails with a sentence', async () => {
    await open(claude());
    await h.read((tx) => tx.spaces.update(h.local.space.id, { mode: 'plan' }));
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['My plan: refactor.'] }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Still just talking.'] }] },
    );
    await h.type('@engineer plan the refactor');
    await h.settled(1);
    const tools = bodyOf(anthropic, 0).tools;
    expect(tools.map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'list_files',
      'search',
      'glob',
      'read_skill',
      'submit_plan',
      'send_to_agent',
      'ask_agent',
      'ask_question',
      'answer_question',
    ]);
    expect(tools.find((t) => t.name === 'bash')?.description).toMatch(/READ-ONLY/);
    expect(toolResults(anthropic, 1)).toContain('You are in plan mode and have not submitted a plan');
    expect(anthropic.requests).toHaveLength(2);
    expect(
      await shows(
        "system: engineer's turn failed: engineer ended a plan-mode turn without submitting a plan (submit_plan), even after a reminder.",
      ),
    ).toBeTruthy();

    // and a plan-mode turn that submits after the nudge succeeds
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Thinking about it.'] }] },
      {
        kind: 'stream',
        blocks: [{ type: 'tool_use', name: 'submit_plan', input: { title: 'Refactor', plan: '1. split' } }],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Plan submitted: split the module.'] }] },
    );
    await h.type('@engineer try again');
    await h.settled(2);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Plan submitted: split the module.');
  });

  const approvalCard = () =>
    waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' ? entry.cardNumber : null;
    });

  it.each([
    ['approve', true],
    ['deny', false],
  ] as const)(
    'G4: a guarded call asks, is decided (%s) from the chat, then runs or is refused',
    async (verdict, runs) => {
      await open(claude());
      anthropic.script(
        {
          kind: 'stream',
          blocks: [
            {
              type: 'tool_use',
              name: 'bash',
              input: { command: 'git push origin main 2>/dev/null; echo pushed > pushed.txt' },
            },
          ],
        },
        { kind: 'stream', blocks: [{ type: 'text', chunks: ['Finished.'] }] },
      );
      await h.type('@engineer push it');
      const card = await approvalCard();
      // the call waits: nothing ran yet
      await expect(stat(path.join(h.agentDir('engineer'), 'pushed.txt'))).rejects.toThrow(/ENOENT/);
      await h.type('/thread 1');
      await h.type(`/${verdict} ${card}`);
      await h.settled(1);
      const ran = await stat(path.join(h.agentDir('engineer'), 'pushed.txt')).then(
        () => true,
        () => false,
      );
      expect(ran).toBe(runs);
      const entries = h.thread(1).map(describeEntry);
      expect(entries).toContain(
        `approval(${runs ? 'approved' : 'denied'}) engineer wants to run: bash: git push origin main 2>/dev/null; echo pushed > pushed.txt`,
      );
      if (runs) {
        expect(toolResults(anthropic, 1)).toContain('Exit code 0.');
        expect(statusRows()[0]).toMatch(/^✓ bash: git push/);
      } else {
        expect(toolResults(anthropic, 1)).toContain('Refused: a person denied the approval');
        expect(statusRows()[0]).toMatch(/^✗ bash: git push .* — Refused: a person denied/);
      }
      expect(entries).toContain('engineer: Finished.');
    },
  );

  it('G1: a deny rule refuses the call with the sentence, and nothing runs', async () => {
    await open(claude());
    await h.read((tx) =>
      tx.guardrails.upsert(h.local.workspace.id, {
        scopeKind: 'workspace',
        scopeId: null,
        action: 'network',
        decision: 'deny',
      }),
    );
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'bash', input: { command: 'curl -s http://127.0.0.1:9 > got.txt' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Could not fetch.'] }] },
    );
    await h.type('@engineer fetch it');
    await h.settled(1);
    expect(toolResults(anthropic, 1)).toContain('Refused: network');
    await expect(stat(path.join(h.agentDir('engineer'), 'got.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('A10: a missing API key gives the configured sentence in the thread, not a crash', async () => {
    await open(claude({ apiKey: undefined }));
    await h.type('@engineer hello');
    await h.settled(1);
    expect(
      await shows(
        "system: engineer's turn failed: engineer cannot answer: no model is configured: set ANTHROPIC_API_KEY to use Anthropic models, or give the agent `adapter: openai` and set OPENAI_BASE_URL to use a local model server.",
      ),
    ).toBeTruthy();
    expect(anthropic.requests).toHaveLength(0);
  });

  it('529 overloaded is retried with backoff, then reported in the thread', async () => {
    await open(claude({ maxRetries: 2 }));
    for (let i = 0; i < 3; i++) {
      anthropic.script({
        kind: 'error',
        status: 529,
        type: 'overloaded_error',
        message: 'Overloaded',
        retryAfterMs: 20,
      });
    }
    await h.type('@engineer hello');
    await h.settled(1);
    expect(anthropic.requests.map((r) => r.status)).toEqual([529, 529, 529]);
    expect(
      await shows(
        "system: engineer's turn failed: The Anthropic API answered with error 529 (overloaded_error): Overloaded (gave up after 3 attempts with backoff)",
      ),
    ).toBeTruthy();
  });

  it('no secret reaches the bash environment, the prompt, the chat or the logs', async () => {
    await open(claude());
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          {
            type: 'tool_use',
            name: 'bash',
            input: { command: 'env; cat /proc/self/environ | tr "\\0" "\\n"' },
          },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Here is my environment.'] }] },
    );
    await h.type('@engineer show your environment');
    await h.settled(1);
    const sent = anthropic.requests.map((r) => JSON.stringify(r.body)).join('\n');
    expect(sent).toContain('PATH='); // the environment did go back to the model
    expect(logs).toContain('"msg":"tool call"'); // the logs were captured
    for (const secret of SECRETS) {
      expect(sent).not.toContain(secret); // prompt and tool results
      expect(logs).not.toContain(secret);
      expect(h.screen()).not.toContain(secret);
    }
    expect(sent).not.toMatch(/ANTHROPIC_API_KEY|SLACK_BOT_TOKEN|DATABASE_URL/);
  });
});
