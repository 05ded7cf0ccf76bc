import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runLocalChat } from '../../../src/app/local-chat';
import { type RunningServer, startServer } from '../../../src/app/server';
import { issueMemberToken } from '../../../src/core/mcp-service/member-tokens';
import { waitFor } from '../../support/engine-harness';
import { BOT_USER, CHANNEL, SIGNING_SECRET, TEAM } from '../../support/slack-delivery';
import { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

const ANTHROPIC_KEY = 'sk-ant-api03-MCP-WIRING-5e2a';
type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

/** E6: `summon serve` as wired: `/mcp` on its HTTP server, over the Slack front end and a model. */
describe('E6 /mcp on Summon’s server', () => {
  let slack: SlackWebApiStandIn;
  let anthropic: AnthropicStandIn;
  let db: TestDatabase;
  let dataDir: { path: string; remove(): Promise<void> };
  let server: RunningServer | null = null;
  let client: Client | null = null;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    slack = new SlackWebApiStandIn({ botUserId: BOT_USER, teamId: TEAM });
    const apiUrl = await slack.listen();
    anthropic = await AnthropicStandIn.start({ apiKey: ANTHROPIC_KEY });
    anthropic.reply = () => ({ kind: 'stream', blocks: [{ type: 'text', chunks: ['Four.'] }] });
    db = await openTestDatabase('postgres');
    await db.database.close();
    dataDir = await makeTempDir();
    env = {
      PORT: '0',
      DATABASE_URL: db.databaseUrl,
      SUMMON_DATA_DIR: dataDir.path,
      SLACK_BOT_TOKEN: slack.token,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: apiUrl,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: anthropic.url,
      SUMMON_DEFAULT_MODEL: 'claude-sonnet-4-6',
      LOG_LEVEL: 'silent',
    };
  });
  afterEach(async () => {
    await client?.close();
    client = null;
    await server?.close();
    server = null;
    await anthropic.close();
    await slack.close();
    await db.dispose();
    await dataDir.remove();
  });

  /** The default workspace bound to the Slack team, its channel to a space, and a member with a token. */
  const memberToken = async (running: RunningServer) => {
    const { store } = running.runtime;
    await store.transaction(async (tx) => {
      const workspace = await tx.workspaces.findBySlug('default');
      if (workspace === null) throw new Error('no default workspace');
      await tx.platformBindings.bind(workspace.id, 'slack', TEAM);
      const space = await tx.spaces.insert(workspace.id, {
        name: 'general',
        context: '',
        mode: 'chat',
        autonomy: 'actWithApproval',
        dedicated: false,
        whileRunning: 'steer',
        repos: [],
      });
      await tx.channelBindings.bind(space.id, 'slack', CHANNEL);
      await tx.members.insert(workspace.id, {
        nickname: 'mia',
        role: 'member',
        slackUserId: 'U0MIA00001',
        discordUserId: null,
      });
    });
    return (await issueMemberToken(store, { workspaceSlug: 'default', nickname: 'mia' })).token;
  };

  const connect = async (port: number, token: string) => {
    client = new Client({ name: 'summon-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  it('E6 answers 401 without a token, and a member’s token asks an agent through the Slack channel', async () => {
    server = await startServer(env, process.cwd());
    expect(server.chat?.platforms).toEqual(['slack']);
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const refused = await fetch(url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const mia = await connect(server.port, await memberToken(server));
    const result = (await mia.callTool({
      name: 'ask_agent',
      arguments: { space: 'general', agent: 'engineer', prompt: 'what is 2 + 2?' },
    })) as ToolResult;
    expect(result).toEqual({ content: [{ type: 'text', text: 'Four.' }] });
    const opening = slack.messages.find((m) => m.text === '@mia via MCP: what is 2 + 2?');
    await waitFor(async () =>
      slack.messages.some(
        (m) => m.threadTs === opening?.ts && m.username === 'engineer' && m.text === 'Four.',
      ),
    );
  });

  it('E6 without a chat platform the reading tools answer and ask_agent says why it cannot', async () => {
    delete env.SLACK_BOT_TOKEN;
    server = await startServer(env, process.cwd());
    expect(server.chat).toBeNull();
    const mia = await connect(server.port, await memberToken(server));
    const spaces = (await mia.callTool({ name: 'list_spaces', arguments: {} })) as ToolResult;
    expect(JSON.parse(spaces.content[0]?.text ?? 'null')).toEqual([
      { name: 'general', context: '', platforms: ['slack'], agents: [] },
    ]);
    const asked = (await mia.callTool({
      name: 'ask_agent',
      arguments: { space: 'general', agent: 'engineer', prompt: 'hi' },
    })) as ToolResult;
    expect(asked).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'No chat platform runs in this Summon process, so there is no channel to ask in.',
        },
      ],
    });
  });

  it('E6 with the terminal chat open (`summon start`), an ask opens a thread on its screen and its engine answers', async () => {
    delete env.SLACK_BOT_TOKEN;
    const running = await startServer(env, process.cwd());
    server = running;
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
    });
    const done = runLocalChat(running.runtime, { input, output }, { mcpChat: running.mcpChat });
    try {
      await waitFor(async () => screen.includes('Type a message'));
      const token = (
        await issueMemberToken(running.runtime.store, { workspaceSlug: 'default', nickname: 'you' })
      ).token;
      const you = await connect(running.port, token);
      const result = (await you.callTool({
        name: 'ask_agent',
        arguments: { space: 'general', agent: 'engineer', prompt: 'what is 2 + 2?' },
      })) as ToolResult;
      expect(result).toEqual({ content: [{ type: 'text', text: 'Four.' }] });
      expect(screen).toContain('@you via MCP: what is 2 + 2?');
      await waitFor(async () => screen.includes('Four.'));
    } finally {
      input.write('/quit\n');
      await done;
    }
    // Closed, the chat is gone from `/mcp` too.
    expect(running.mcpChat?.get()).toBeNull();
  });
});
