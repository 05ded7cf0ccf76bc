import { randomBytes } from 'node:crypto';
import { expandFromEnv } from '../../../src/adapters/mcp/env-expansion';
import { McpClientPool } from '../../../src/adapters/mcp/mcp-client-pool';
import { askForAuthorization } from '../../../src/adapters/mcp-oauth/ask-for-authorization';
import { AnthropicRunner } from '../../../src/adapters/runners/anthropic-runner';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { createTurnTools } from '../../../src/app/turn-tools';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import { silentLogger } from '../../../src/core/ports/logger';
import { ENGINE_SETUPS, type EngineHarness, openEngineHarness } from '../../support/engine-harness';
import {
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../../support/mcp-oauth/protected-mcp-server';
import {
  followAuthorizationLink,
  type SummonOAuthSide,
  startSummonOAuthSide,
} from '../../support/mcp-oauth/summon-callback-server';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { makeTempDir } from '../../support/temp-dir';

const ANTHROPIC_KEY = 'sk-ant-api03-MCP-OAUTH-TURNS-SECRET-5d1e';
/** E4: the guard's read-only default is not what this test is about: the workspace allows MCP. */
const MCP_ALLOWED = { scopeKind: 'workspace', scopeId: null, action: 'mcp', decision: 'allow' } as const;

/** E5: a built-in turn's call to an `auth: oauth` server with each member's own tokens. */
describe('E5 OAuth MCP servers in built-in turns', () => {
  let h: EngineHarness;
  let anthropic: AnthropicStandIn;
  let remote: ProtectedMcpServer;
  let summon: SummonOAuthSide;
  let state: Awaited<ReturnType<typeof makeTempDir>>;
  let clients: McpClientPool;

  beforeEach(async () => {
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    remote = await startProtectedMcpServer();
    state = await makeTempDir('summon-mcp-oauth-turns-');
    // The pool reaches Summon's OAuth side once the harness's store exists (set below).
    let side: SummonOAuthSide | undefined;
    const sideOf = () => {
      if (side === undefined) throw new Error('no OAuth side yet');
      return side;
    };
    clients = new McpClientPool({
      expand: expandFromEnv({}),
      launcher: createProcessLauncher({ processConcurrency: 4 }),
      logger: silentLogger,
      stateDir: state.path,
      callTimeoutMs: 5000,
      oauth: {
        provider: (context, spec) => sideOf().oauth.provider(context, spec),
        ask: (context, spec) =>
          askForAuthorization(
            {
              oauth: sideOf().oauth,
              store: h.store,
              clock: sideOf().clock,
              logger: silentLogger,
              sendPrivately: async (member, text) => {
                if (context.sendPrivately === undefined) throw new Error('no conversation');
                await context.sendPrivately(member, text);
              },
            },
            context,
            spec,
          ),
      },
    });
    h = await openEngineHarness(
      ENGINE_SETUPS[0],
      new AnthropicRunner({
        apiKey: ANTHROPIC_KEY,
        baseUrl: anthropic.url,
        defaultModel: 'claude-sonnet-4-6',
        maxRetries: 0,
      }),
      {},
      { tools: createTurnTools(process.env, {}), mcp: { clients } },
    );
    side = await startSummonOAuthSide(h.store, { secretKey: randomBytes(32) });
    summon = side;
    const server: McpServerSpec = {
      name: 'linear',
      transport: 'http',
      url: remote.url,
      headers: {},
      auth: { kind: 'oauth', tokens: 'member' },
    };
    const workspaceId = h.local.workspace.id;
    await h.read(async (tx) => {
      await tx.mcpServers.save(workspaceId, server);
      await tx.mcpServers.assign(workspaceId, { spaceId: h.local.space.id }, ['linear']);
      await tx.guardrails.upsert(workspaceId, MCP_ALLOWED);
    });
  });
  afterEach(async () => {
    await h?.close();
    await clients?.close();
    await summon?.close();
    await remote?.close();
    await anthropic.close();
    await state.remove();
  });

  type Body = { messages: unknown[]; tools: { name: string }[] };
  const bodyOf = (index: number): Body => {
    const body = anthropic.requests[index]?.body;
    if (body === undefined) throw new Error(`no request ${index}`);
    return body as Body;
  };
  const lastMessage = (index: number): string => JSON.stringify(bodyOf(index).messages.at(-1));

  it('E5 a call without a token tells the model who was asked, the member gets the link privately, and after the flow the next turn’s call succeeds', async () => {
    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'linear__authorize', input: {} }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['I asked you to authorize Linear.'] }] },
    );
    await h.type('@engineer what does linear say about me?');
    await h.settled(1);
    // E5: no token: the server's tools are not listed, only the way to ask for one.
    expect(
      bodyOf(0)
        .tools.map((t) => t.name)
        .filter((n) => n.startsWith('linear__')),
    ).toEqual(['linear__authorize']);
    expect(lastMessage(1)).toContain('linear needs authorization; @you was sent a link.');
    // The link went to the member privately (the terminal prints it as theirs), not the thread.
    const screen = h.screen();
    const link = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(screen)?.[1];
    expect(link).toBeDefined();
    expect(JSON.stringify(h.thread(1))).not.toContain(link);
    expect(JSON.stringify(anthropic.requests)).not.toContain(link);
    expect(remote.authorizedCalls).toBe(0);

    // The person opens the link; the authorization server sends them back to Summon.
    const followed = await followAuthorizationLink(link ?? '');
    expect(followed.status).toBe(200);

    anthropic.script(
      { kind: 'stream', blocks: [{ type: 'tool_use', name: 'linear__whoami', input: {} }] },
      { kind: 'stream', blocks: [{ type: 'text', chunks: ['Done.'] }] },
    );
    await h.type('@engineer try again');
    await h.settled(2);
    expect(bodyOf(2).tools.map((t) => t.name)).toContain('linear__whoami');
    expect(bodyOf(2).tools.map((t) => t.name)).not.toContain('linear__authorize');
    expect(lastMessage(3)).not.toContain('needs authorization');
    expect(lastMessage(3)).toContain('person-1');
    expect(remote.authorizedCalls).toBeGreaterThan(0);
  });
});
