import { PassThrough } from 'node:stream';
import { expandFromEnv } from '../../../src/adapters/mcp/env-expansion';
import { McpClientPool } from '../../../src/adapters/mcp/mcp-client-pool';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { OpenAiRunner } from '../../../src/adapters/runners/openai-runner';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { createLogger } from '../../../src/app/logger';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { Runner } from '../../../src/core/ports/runner';
import {
  describeEntry,
  ENGINE_SETUPS,
  type EngineHarness,
  openEngineHarness,
  waitFor,
} from '../../support/engine-harness';
import {
  envRef,
  type HttpMcpServer,
  startHttpMcpServer,
  stdioSpec,
} from '../../support/mcp/mcp-test-servers';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { OpenAiStandIn } from '../../support/stand-ins/openai-stand-in';
import { makeTempDir } from '../../support/temp-dir';

const ANTHROPIC_KEY = 'sk-ant-api03-MCP-TURNS-SECRET-41c9';
const OPENAI_KEY = 'sk-proj-MCP-TURNS-OPENAI-SECRET-0b3e';
const TRACKER_TOKEN = 'tracker-token-MCP-TURNS-SECRET-77d2';
const SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for.', minLength: 1, examples: ['flaky test'] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    scope: { $ref: '#/$defs/scope' },
  },
  required: ['query'],
  additionalProperties: false,
  $defs: { scope: { type: 'string', enum: ['open', 'closed', 'all'] } },
};
/** E4: until the read-only default is in the guard, the workspace allows MCP calls by a rule. */
const MCP_ALLOWED = { scopeKind: 'workspace', scopeId: null, action: 'mcp', decision: 'allow' } as const;

// The MCP side does not depend on the database or queue: the embedded set-up is enough.
const SETUP = ENGINE_SETUPS[0];

describe('E1 A9 MCP tools in built-in turns', () => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;
  let openai: OpenAiStandIn;
  let state: Awaited<ReturnType<typeof makeTempDir>>;
  let clients: McpClientPool;
  let servers: McpServerSpec[];
  let logs: string;

  const open = async (runner: Runner) => {
    const stream = new PassThrough();
    logs = '';
    stream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const logger = createLogger({ level: 'debug', destination: stream });
    clients = new McpClientPool({
      expand: expandFromEnv({ TRACKER_TOKEN }),
      launcher: createProcessLauncher({ processConcurrency: 8 }),
      logger,
      stateDir: state.path,
      callTimeoutMs: 1500,
      maxMessageBytes: 2 * 1024 ** 2,
    });
    h = await openEngineHarness(
      SETUP,
      runner,
      {},
      {
        tools: createTurnTools(process.env, {}),
        logger,
        mcp: { clients },
      },
    );
    // E1: the servers declared in the workspace and given to the space.
    const workspaceId = h.local.workspace.id;
    await h.read(async (tx) => {
      for (const server of servers) await tx.mcpServers.save(workspaceId, server);
      await tx.mcpServers.assign(
        workspaceId,
        { spaceId: h.local.space.id },
        servers.map((server) => server.name),
      );
      await tx.guardrails.upsert(workspaceId, MCP_ALLOWED);
    });
  };
  const claude = () =>
    new AnthropicRunner({
      apiKey: ANTHROPIC_KEY,
      baseUrl: anthropic.url,
      defaultModel: 'claude-sonnet-4-6',
      maxRetries: 0,
    });
  type Body = { messages: unknown[]; tools: { name: string; description: string; input_schema: unknown }[] };
  const bodyOf = (index: number): Body => {
    const body = anthropic.requests[index]?.body;
    if (body === undefined) throw new Error(`no request ${index}`);
    return body as Body;
  };
  const lastMessage = (index: number): string => JSON.stringify(bodyOf(index).messages.at(-1));
  const statusRows = () =>
    h
      .thread(1)
      .flatMap((e) =>
        e.kind === 'posted' && e.message.content.kind === 'status' ? e.message.content.card.rows : [],
      );

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    openai = await OpenAiStandIn.start({ apiKey: OPENAI_KEY });
    state = await makeTempDir('summon-mcp-turns-');
    servers = [stdioSpec()];
  });
  afterEach(async () => {
    await h?.close();
    await clients?.close();
    await anthropic.close();
    await openai.close();
    await state.remove();
  });

  it('E1 the model is offered <server>__<tool> with the server’s description and schema unchanged; a read-only call’s answer is in the next request', async () => {
    await open(claude());
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'tracker__search', input: { query: 'flaky' } }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Two issues.'] }] },
    );
    await h.type('@engineer find the flaky test issues');
    await h.settled(1);
    const offered = bodyOf(0).tools;
    expect(offered.find((tool) => tool.name === 'tracker__search')).toEqual({
      name: 'tracker__search',
      description: 'Search the issues (read-only).',
      input_schema: SEARCH_SCHEMA,
    });
    expect(offered.map((tool) => tool.name)).toContain('tracker__create_issue');
    expect(lastMessage(1)).toContain('found 2 issues for \\"flaky\\"');
    expect(statusRows()).toEqual(['✓ tracker__search: {"query":"flaky"}']);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Two issues.');
    // O4: the call is recorded with how it was decided and how it went.
    const [run] = await h.runs();
    expect(await h.read((tx) => tx.mcpCalls.listForRun(run?.id ?? ''))).toMatchObject([
      {
        server: 'tracker',
        tool: 'tracker__search',
        decision: 'allow',
        approvedByMemberId: null,
        outcome: 'ok',
      },
    ]);
  });

  it('E4, O4 a tool that is not read-only asks: the card names server, tool and masked arguments; approved, it runs and is recorded', async () => {
    await open(claude());
    // E4: no rule for mcp: a tool the server does not annotate read-only asks.
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, { ...MCP_ALLOWED, decision: 'ask' }));
    anthropic.script(
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'tracker__create_issue', input: { title: 'Flaky', token: 'sk-9' } },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Filed.'] }] },
    );
    await h.type('@engineer file the flaky test');
    const card = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' && entry.message.content.kind === 'approval'
        ? { n: entry.cardNumber, card: entry.message.content.card }
        : null;
    });
    expect(card.card).toMatchObject({
      action: 'mcp',
      summary: 'engineer wants to call tracker__create_issue',
      code: '{\n  "title": "Flaky",\n  "token": "••••"\n}',
      offersConversation: true,
    });
    await h.type('/thread 1');
    await h.type(`/approve ${card.n}`);
    await h.settled(1);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Filed.');
    const [run] = await h.runs();
    const [row] = await h.read((tx) => tx.mcpCalls.listForRun(run?.id ?? ''));
    expect(row).toMatchObject({ tool: 'tracker__create_issue', decision: 'ask', outcome: 'ok' });
    expect(row?.approvedByMemberId).toBe(h.local.member.id);
  });

  it('E4, T2 a turn waiting on an MCP call’s card goes on after a graceful restart, waiting on the same card; approved for the conversation, the call runs once', async () => {
    await open(claude());
    await h.read((tx) => tx.guardrails.upsert(h.local.workspace.id, { ...MCP_ALLOWED, decision: 'ask' }));
    anthropic.script(
      {
        kind: 'stream',
        blocks: [{ type: 'tool_use', name: 'tracker__create_issue', input: { title: 'Flaky' } }],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Filed.'] }] },
    );
    await h.type('@engineer file the flaky test');
    const card = await waitFor(async () => {
      const entry = h.thread(1).find((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
      return entry?.kind === 'posted' && entry.message.content.kind === 'approval'
        ? { n: entry.cardNumber, id: entry.message.content.card.approvalId }
        : null;
    });
    const [run] = await h.runs();
    if (run === undefined) throw new Error('no run');
    await waitFor(async () => (await h.read((tx) => tx.checkpoints.find(run.id)))?.approvalId === card.id);
    await h.engine.close();
    await h.restart();
    await h.type('/thread 1');
    await h.type(`/approve-conversation ${card.n}`);
    await h.settled(1);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Filed.');
    const approvals = h.thread(1).filter((e) => e.kind === 'posted' && e.message.content.kind === 'approval');
    expect(approvals).toHaveLength(1);
    expect(anthropic.requests).toHaveLength(2);
    const rows = await h.read((tx) => tx.mcpCalls.listForRun(run.id));
    expect(rows).toMatchObject([{ tool: 'tracker__create_issue', decision: 'ask', outcome: 'ok' }]);
  });

  it('E1 the same tools reach the OpenAI-compatible runner, schemas unchanged', async () => {
    await open(
      new OpenAiRunner({
        baseUrl: openai.baseUrl,
        apiKey: OPENAI_KEY,
        defaultModel: 'llama3.1',
        maxRetries: 0,
      }),
    );
    openai.script(
      { kind: 'stream', deltas: [], toolCalls: [{ name: 'tracker__search', arguments: { query: 'open' } }] },
      { kind: 'stream', deltas: ['Found them.'] },
    );
    await h.type('@engineer search');
    await h.settled(1);
    const body = openai.requests[0]?.body as {
      tools: { type: string; function: { name: string; description: string; parameters: unknown } }[];
    };
    expect(body.tools.find((tool) => tool.function.name === 'tracker__search')?.function).toEqual({
      name: 'tracker__search',
      description: 'Search the issues (read-only).',
      parameters: SEARCH_SCHEMA,
    });
    expect(openai.requests[1]?.messages?.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'found 2 issues for "open"',
    ]);
  });

  it('A9 E1 plan mode offers only the tools the server annotates read-only', async () => {
    await open(claude());
    await h.read((tx) => tx.spaces.update(h.local.space.id, { mode: 'plan' }));
    anthropic.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Plan.'] }] });
    await h.type('@engineer plan');
    await h.settled(1);
    const names = bodyOf(0)
      .tools.map((tool) => tool.name)
      .filter((name) => name.startsWith('tracker__'));
    expect(names).toEqual([
      'tracker__search',
      'tracker__read_path',
      'tracker__environment',
      'tracker__fetch_url',
    ]);
  });

  it('E3 a server that crashes mid-turn is started again, and the turn goes on; garbage, 10 MB and a hang are sentences', async () => {
    await open(claude());
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'tracker__crash', input: {} }] },
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'tracker__search', input: { query: 'again' } }] },
      {
        kind: 'stream',
        blocks: [
          { type: 'tool_use', name: 'tracker__garbage', input: {} },
          { type: 'tool_use', name: 'tracker__huge', input: {} },
          { type: 'tool_use', name: 'tracker__hang', input: {} },
        ],
      },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Done despite the tracker.'] }] },
    );
    await h.type('@engineer poke the tracker');
    await h.settled(1);
    expect(lastMessage(1)).toContain(
      'The MCP server tracker stopped before answering tracker__crash; it is started again on the next call.',
    );
    expect(lastMessage(2)).toContain('found 2 issues for \\"again\\"');
    const third = lastMessage(3);
    expect(third).toContain(
      'The MCP server tracker answered tracker__garbage with something that is not a valid MCP answer.',
    );
    expect(third).toContain(
      'The MCP server tracker answered tracker__huge with more than 2 MB; the answer was dropped.',
    );
    expect(third).toContain('The MCP server tracker did not answer tracker__hang within 2 s.');
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Done despite the tracker.');
  });

  it('E1 a server unavailable at the turn’s start: the turn goes on without its tools and the status card says which and why', async () => {
    servers = [stdioSpec(), stdioSpec({ name: 'broken', command: 'no-such-mcp-server' })];
    await open(claude());
    anthropic.script({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Fine without it.'] }] });
    await h.type('@engineer go');
    await h.settled(1);
    const names = bodyOf(0).tools.map((tool) => tool.name);
    expect(names).toContain('tracker__search');
    expect(names.some((name) => name.startsWith('broken__'))).toBe(false);
    expect(statusRows()).toEqual([
      '✗ The MCP server broken could not start: its program no-such-mcp-server was not found.',
    ]);
    expect(h.thread(1).map(describeEntry)).toContain('engineer: Fine without it.');
  });

  it('E2 an HTTP server gets its header from an env reference; the value reaches no model request, chat post, log or run’s bash', async () => {
    let http: HttpMcpServer | undefined;
    // E2, X1: the token sits in Summon's own environment, as in production.
    process.env.TRACKER_TOKEN = TRACKER_TOKEN;
    try {
      http = await startHttpMcpServer(`Bearer ${TRACKER_TOKEN}`);
      servers = [http.spec({ Authorization: `Bearer ${envRef('TRACKER_TOKEN')}` })];
      await open(claude());
      anthropic.script(
        {
          kind: 'stream',
          blocks: [
            { type: 'tool_use', name: 'remote__search', input: { query: 'remote' } },
            { type: 'tool_use', name: 'remote__environment', input: {} },
            // X1: the run's bash looks for it in its own environment and every process's.
            {
              type: 'tool_use',
              name: 'bash',
              input: {
                command: "echo BASH-LOOKED; env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; true",
              },
            },
          ],
        },
        { kind: 'stream', blocks: [{ type: 'text', chunks: ['Remote done.'] }] },
      );
      await h.type('@engineer ask the remote tracker');
      await h.settled(1);
      expect(lastMessage(1)).toContain('found 2 issues for \\"remote\\"');
      expect(lastMessage(1)).toContain('Bearer [redacted]');
      expect(lastMessage(1)).toContain('BASH-LOOKED');
      expect(http.refused).toEqual([]);
      expect(JSON.stringify(anthropic.requests)).not.toContain(TRACKER_TOKEN);
      expect(JSON.stringify(h.thread(1))).not.toContain(TRACKER_TOKEN);
      expect(logs).not.toContain(TRACKER_TOKEN);
    } finally {
      delete process.env.TRACKER_TOKEN;
      await http?.close();
    }
  });
});
