import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpHttpEndpoint } from '../../../src/adapters/mcp-server/mcp-http-endpoint';
import { createLogger } from '../../../src/app/logger';
import { runCli } from '../../../src/cli/main';
import { NOT_GRANTABLE } from '../../../src/core/engine/approvals/conversation-grant';
import { mcpApprovalDetails } from '../../../src/core/guardrails/mcp-call-card';
import { mcpSubjectHash } from '../../../src/core/guardrails/mcp-call-subject';
import {
  hashMemberToken,
  issueMemberToken,
  revokeMemberTokens,
} from '../../../src/core/mcp-service/member-tokens';
import { MemberToolsService } from '../../../src/core/mcp-service/member-tools-service';
import { systemClock } from '../../../src/core/ports/clock';
import type { Logger } from '../../../src/core/ports/logger';
import { held, waitFor } from '../../support/engine-harness';
import { ScriptedRunner } from '../../support/scripted-runner';
import { CHANNEL, fixture } from '../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../support/slack-harness';
import { makeTempDir } from '../../support/temp-dir';

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * E6: Summon's `/mcp` with the MCP SDK's own client over HTTP, in front of the Slack front end
 * and the real engine on PostgreSQL (the Slack Web API stand-in is the space's channel).
 */
describe('E6 Summon as an MCP server', () => {
  let h: SlackHarness;
  let url: string;
  let logged: string;
  let logger: Logger;
  let slow: ReturnType<typeof held>;
  const clients: Client[] = [];
  const servers: Server[] = [];

  /** `/mcp` over the harness's engine and Slack platform, on a port of its own. */
  const serveMcp = async (options: { askWaitMs?: number } = {}) => {
    const engine = h.engine;
    if (engine === null) throw new Error('the harness has no engine');
    const tools = new MemberToolsService({
      store: h.store,
      chat: () => ({ engine, platforms: new Map([['slack', h.front.platform]]), signals: engine.signals }),
      clock: systemClock,
      logger,
      newId: randomUUID,
      ...options,
    });
    const endpoint = new McpHttpEndpoint({ tools, logger, version: 'test' });
    const http = createServer((request, response) => {
      if (endpoint.handle(request, response)) return;
      response.writeHead(404);
      response.end();
    });
    servers.push(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  };

  beforeEach(async () => {
    logged = '';
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => {
      logged += chunk.toString();
    });
    logger = createLogger({ level: 'info', destination: sink });
    slow = held('qa is done');
    h = await openSlackHarness({
      logger,
      runner: new ScriptedRunner({ qa: slow.script }, (request) => [
        {
          type: 'final',
          text: `${request.agent.name} heard: ${request.prompt.includes('2 + 2') ? '4' : 'ok'}`,
        },
      ]),
    });
    url = await serveMcp();
  });
  afterEach(async () => {
    slow.release();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const http of servers.splice(0)) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
    await h.close();
  });

  const tokenOf = async (nickname: string) =>
    (await issueMemberToken(h.store, { workspaceSlug: h.local.workspace.slug, nickname })).token;

  const connect = async (token: string, at = url) => {
    const client = new Client({ name: 'summon-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(at), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true };
  };

  it('E6 a member’s token lists spaces and agents, asks an agent in a new thread that names them, and gets the reply', async () => {
    const mia = await connect(await tokenOf('mia'));
    const listed = (await mia.listTools()).tools.map((t) => t.name).sort();
    expect(listed).toEqual([
      'ask_agent',
      'decide_approval',
      'list_agents',
      'list_approvals',
      'list_spaces',
      'usage',
    ]);

    const spaces = JSON.parse((await call(mia, 'list_spaces')).text) as { name: string; agents: string[] }[];
    expect(spaces.map((s) => s.name)).toEqual(['general']);
    expect(spaces[0]?.agents).toContain('engineer');
    const agents = JSON.parse((await call(mia, 'list_agents', { space: 'general' })).text) as {
      name: string;
    }[];
    expect(agents.map((a) => a.name)).toContain('engineer');
    expect(await call(mia, 'list_agents', { space: 'nowhere' })).toEqual({
      isError: true,
      text: 'There is no space "nowhere" you can reach (your spaces: general).',
    });

    const asked = await call(mia, 'ask_agent', {
      space: 'general',
      agent: 'engineer',
      prompt: 'what is 2 + 2?',
    });
    expect(asked).toEqual({ isError: false, text: 'engineer heard: 4' });
    // The thread shows in the space's channel: its first post names the member; the reply follows.
    const opening = h.standIn.messages.find(
      (m) => m.channel === CHANNEL && m.text === '@mia via MCP: what is 2 + 2?',
    );
    expect(opening?.threadTs ?? null).toBeNull();
    await waitFor(async () =>
      h.standIn.messages.some(
        (m) => m.threadTs === opening?.ts && m.username === 'engineer' && m.text === asked.text,
      ),
    );
    // The turn is the member's, as a mention in chat would be.
    const runs = await h.runs();
    expect(runs).toHaveLength(1);
    const member = await h.read((tx) => tx.members.findByNickname(h.local.workspace.id, 'mia'));
    expect(runs[0]?.startedByMemberId).toBe(member?.id);

    const usage = JSON.parse((await call(mia, 'usage', { by: 'member' })).text) as {
      workspace: string;
      by: string;
      rows: { name: string; runs: number }[];
    };
    expect(usage).toMatchObject({ workspace: h.local.workspace.slug, by: 'member' });
    expect(usage.rows).toEqual([expect.objectContaining({ name: 'mia', runs: 1 })]);
    expect(await call(mia, 'usage', { since: 'last week' })).toEqual({
      isError: true,
      text: 'since must be a date (2026-11-01) or a number of days (7d), not "last week".',
    });
    expect(await call(mia, 'ask_agent', { space: 'general', agent: 'nobody', prompt: 'hi' })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^There is no agent "nobody"/),
    });
  });

  it('E6 a turn longer than the wait: "still working", naming the thread; the turn goes on and its reply lands there', async () => {
    const shortWait = await serveMcp({ askWaitMs: 300 });
    const mia = await connect(await tokenOf('mia'), shortWait);
    const asked = await call(mia, 'ask_agent', { space: 'general', agent: 'qa', prompt: 'check everything' });
    const opening = h.standIn.messages.find((m) => m.text === '@mia via MCP: check everything');
    if (opening === undefined) throw new Error('no opening post');
    expect(asked.isError).toBe(false);
    expect(asked.text).toMatch(/^qa is still working; see .+ for the reply\.$/);
    // The platform's own link to the thread (Slack: its permalink).
    expect(asked.text).toContain(`/archives/${CHANNEL}/p${opening.ts.replace('.', '')}`);
    slow.release();
    await waitFor(async () =>
      h.standIn.messages.some(
        (m) => m.threadTs === opening.ts && m.username === 'qa' && m.text === 'qa is done',
      ),
    );
  });

  it('E6 a request that goes away stops the waiting, not the turn', async () => {
    const token = await tokenOf('mia');
    const gone = new AbortController();
    const request = fetch(url, {
      method: 'POST',
      signal: gone.signal,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'ask_agent', arguments: { space: 'general', agent: 'qa', prompt: 'take your time' } },
      }),
    });
    await slow.started;
    gone.abort();
    await expect(request).rejects.toThrow();
    // The tool answered (its wait over) while the turn still works.
    await waitFor(async () => logged.includes('"tool":"ask_agent"') && logged.includes('MCP tool call'));
    expect((await h.runs()).map((r) => r.status)).toEqual(['running']);
    slow.release();
    const opening = h.standIn.messages.find((m) => m.text === '@mia via MCP: take your time');
    await waitFor(async () =>
      h.standIn.messages.some(
        (m) => m.threadTs === opening?.ts && m.username === 'qa' && m.text === 'qa is done',
      ),
    );
  });

  it('P8 E6 a viewer’s token reads but cannot ask an agent: refused with a sentence, nothing posted', async () => {
    const vic = await connect(await tokenOf('vic'));
    expect(JSON.parse((await call(vic, 'list_spaces')).text)).toHaveLength(1);
    const before = h.standIn.messages.length;
    expect(await call(vic, 'ask_agent', { space: 'general', agent: 'engineer', prompt: 'do it' })).toEqual({
      isError: true,
      text: 'Your role (viewer) can read along but cannot start work, so you cannot ask an agent. An admin can change it.',
    });
    expect(h.standIn.messages.length).toBe(before);
    expect(await h.runs()).toEqual([]);
  });

  it('E6 a missing, wrong or revoked token is refused (401, WWW-Authenticate, a JSON-RPC error), logged without the token', async () => {
    const token = await tokenOf('mia');
    const initialize = (authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'curl', version: '1' },
          },
        }),
      });
    const wrong = `smn_${'A'.repeat(43)}`;
    for (const authorization of [undefined, 'Bearer nope', `Bearer ${wrong}`]) {
      const response = await initialize(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        authorization === undefined
          ? 'Bearer realm="summon"'
          : 'Bearer realm="summon", error="invalid_token"',
      );
      const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        error: { message: expect.stringMatching(/^Unauthorized/) },
      });
    }
    // The positive control: the same request with the member's token is served.
    expect((await initialize(`Bearer ${token}`)).status).toBe(200);

    const revoked = await revokeMemberTokens(h.store, {
      workspaceSlug: h.local.workspace.slug,
      nickname: 'mia',
      now: new Date(),
    });
    expect(revoked).toEqual({ nickname: 'mia', revoked: 1 });
    expect((await initialize(`Bearer ${token}`)).status).toBe(401);
    await expect(connect(token)).rejects.toThrow();

    const refusals = logged.split('\n').filter((line) => line.includes('MCP request refused'));
    expect(refusals.length).toBeGreaterThanOrEqual(5);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(wrong);
  });

  it('G4 E6 decide_approval: a plain member is refused; an approver decides, through the card’s path (the card shows it)', async () => {
    const mia = await connect(await tokenOf('mia'));
    await call(mia, 'ask_agent', { space: 'general', agent: 'engineer', prompt: 'push it' });
    const [run] = await h.runs();
    if (run === undefined || h.engine === null) throw new Error('no run');
    const approval = await h.engine.requestApproval({
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: ['acme/api', 'main'] },
    });
    const pending = JSON.parse((await call(mia, 'list_approvals')).text) as {
      approvalId: string;
      space: string;
    }[];
    expect(pending).toEqual([
      expect.objectContaining({
        approvalId: approval.id,
        space: 'general',
        summary: 'push to acme/api main',
      }),
    ]);

    expect(await call(mia, 'decide_approval', { approvalId: approval.id, verdict: 'approve' })).toEqual({
      isError: true,
      text: 'Only owners, admins and approvers can decide approvals; your role is member.',
    });
    const stillPending = await h.read((tx) => tx.approvals.findById(approval.id));
    expect(stillPending?.status).toBe('pending');

    const dana = await connect(await tokenOf('dana'));
    const decided = await call(dana, 'decide_approval', { approvalId: approval.id, verdict: 'approve' });
    expect(JSON.parse(decided.text)).toEqual({ approvalId: approval.id, status: 'approved' });
    const stored = await h.read((tx) => tx.approvals.findById(approval.id));
    expect(stored?.status).toBe('approved');
    // The card in the thread is redrawn as decided, by whom.
    await waitFor(async () => {
      const card = h.standIn.messages.find((m) => m.ts === approval.platformCardRef);
      return card !== undefined && card.edits > 0 && JSON.stringify(card.blocks).includes('@dana');
    });
    expect(JSON.parse((await call(dana, 'list_approvals')).text)).toEqual([]);
  });

  it('E4 E6 decide_approval approve-conversation: an MCP call’s card is approved for its conversation; another card cannot be', async () => {
    const dana = await connect(await tokenOf('dana'));
    await call(dana, 'ask_agent', { space: 'general', agent: 'engineer', prompt: 'file it' });
    const [run] = await h.runs();
    if (run === undefined || h.engine === null) throw new Error('no run');
    const mcp = { server: 'linear', tool: 'create_issue', arguments: { title: 'Bug' }, readOnly: false };
    const approval = await h.engine.requestApproval({
      runId: run.id,
      action: 'mcp',
      details: mcpApprovalDetails('engineer', mcp, 'mcp linear__create_issue needs approval first.'),
      subjectHash: mcpSubjectHash(mcp),
    });
    const push = await h.engine.requestApproval({
      runId: run.id,
      action: 'push_to_remote',
      details: { summary: 'push to acme/api main', lines: [] },
    });
    expect(
      await call(dana, 'decide_approval', { approvalId: push.id, verdict: 'approve-conversation' }),
    ).toEqual({
      isError: true,
      text: NOT_GRANTABLE,
    });
    const decided = await call(dana, 'decide_approval', {
      approvalId: approval.id,
      verdict: 'approve-conversation',
    });
    expect(JSON.parse(decided.text)).toEqual({ approvalId: approval.id, status: 'approved' });
    const grant = await h.read((tx) => tx.mcpGrants.find(run.conversationId, mcpSubjectHash(mcp)));
    expect(grant?.approvalId).toBe(approval.id);
  });

  it('E6 tokens: printed once by the CLI (--json), stored only as a hash; /summon token only in a direct message', async () => {
    const dataDir = await makeTempDir();
    const out: string[] = [];
    const code = await runCli(['members', 'token', 'mia', '--json'], {
      output: { out: (t) => out.push(t), err: (t) => out.push(t) },
      env: { DATABASE_URL: h.databaseUrl, SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'error' },
      cwd: dataDir.path,
    });
    await dataDir.remove();
    expect(code).toBe(0);
    const { token } = JSON.parse(out.join('\n')) as { token: string };
    expect(token).toMatch(/^smn_[A-Za-z0-9_-]{43}$/);
    const rows = await h.read((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<Record<string, unknown>>(
        'SELECT * FROM member_tokens',
      ),
    );
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.token_hash)).toEqual([hashMemberToken(token)]);
    expect(JSON.parse((await call(await connect(token), 'list_spaces')).text)).toHaveLength(1);
    const [used] = await h.read((tx) =>
      (tx as unknown as { query: <R>(sql: string) => Promise<R[]> }).query<{ last_used_at: Date | null }>(
        'SELECT last_used_at FROM member_tokens',
      ),
    );
    expect(used?.last_used_at).not.toBeNull();

    const summon = async (channelId: string) => {
      const response = await h.deliver({
        ...fixture('slash-command'),
        text: 'token',
        channel_id: channelId,
        user_id: PEOPLE.mia.userId,
      });
      return JSON.parse(response.body) as { response_type: string; text: string };
    };
    const inChannel = await summon(CHANNEL);
    expect(inChannel.text).toMatch(
      /^A personal token is a secret: send `\/summon token` in a direct message/,
    );
    expect(inChannel.text).not.toContain('smn_');
    const direct = await summon('D0MIADM001');
    expect(direct.response_type).toBe('ephemeral');
    const dmToken = /`(smn_[A-Za-z0-9_-]{43})`/.exec(direct.text)?.[1];
    if (dmToken === undefined) throw new Error(`no token in ${direct.text}`);
    expect(JSON.parse((await call(await connect(dmToken), 'list_spaces')).text)).toHaveLength(1);
  });
});
