import { randomBytes } from 'node:crypto';
import { expandFromEnv } from '../../../src/adapters/mcp/env-expansion';
import { McpClientPool } from '../../../src/adapters/mcp/mcp-client-pool';
import { askForAuthorization } from '../../../src/adapters/mcp-oauth/ask-for-authorization';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { MemberRecord } from '../../../src/core/model/records';
import { silentLogger } from '../../../src/core/ports/logger';
import type { McpCallContext } from '../../../src/core/ports/mcp-clients';
import {
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../../support/mcp-oauth/protected-mcp-server';
import {
  followAuthorizationLink,
  type SummonOAuthSide,
  startSummonOAuthSide,
} from '../../support/mcp-oauth/summon-callback-server';
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

/** E5: the pool with `auth: oauth` servers: each member's own connection and token. */
describe('E5 McpClientPool with OAuth (PostgreSQL)', () => {
  let db: TestDatabase;
  let remote: ProtectedMcpServer;
  let summon: SummonOAuthSide;
  let state: Awaited<ReturnType<typeof makeTempDir>>;
  let pool: McpClientPool;
  let workspaceId: string;
  let sam: string;
  let kim: string;
  let linear: McpServerSpec;
  const sent: { to: string; text: string }[] = [];

  beforeAll(async () => {
    db = await openTestDatabase('postgres');
    remote = await startProtectedMcpServer();
    state = await makeTempDir('summon-mcp-oauth-pool-');
    const store = db.database.store;
    summon = await startSummonOAuthSide(store, { secretKey: randomBytes(32) });
    linear = {
      name: 'linear',
      transport: 'http',
      url: remote.url,
      headers: {},
      auth: { kind: 'oauth', tokens: 'member' },
    };
    await store.transaction(async (tx) => {
      workspaceId = (await tx.workspaces.insert({ slug: 'acme', name: 'Acme' })).id;
      const member = (nickname: string) =>
        tx.members.insert(workspaceId, { nickname, role: 'member', slackUserId: null, discordUserId: null });
      sam = (await member('sam')).id;
      kim = (await member('kim')).id;
    });
    pool = new McpClientPool({
      expand: expandFromEnv({}),
      launcher: createProcessLauncher({ processConcurrency: 2 }),
      logger: silentLogger,
      stateDir: state.path,
      callTimeoutMs: 5000,
      oauth: {
        provider: (context, spec) => summon.oauth.provider(context, spec),
        ask: (context, spec) =>
          askForAuthorization(
            {
              oauth: summon.oauth,
              store,
              clock: summon.clock,
              logger: silentLogger,
              sendPrivately: async (member: MemberRecord, text: string) => {
                if (context.sendPrivately === undefined) throw new Error('no conversation');
                await context.sendPrivately(member, text);
              },
            },
            context,
            spec,
          ),
      },
    });
  });
  afterAll(async () => {
    await pool.close();
    await summon.close();
    await remote.close();
    await db.dispose();
    await state.remove();
  });

  const as = (memberId: string): McpCallContext => ({
    workspaceId,
    memberId,
    sendPrivately: async (member, text) => {
      sent.push({ to: member.nickname, text });
    },
  });
  const signal = new AbortController().signal;

  it("E5 one member's token never serves another member's call: each is asked for their own", async () => {
    // Sam has no token: the model is offered only linear__authorize, and calling it asks Sam.
    const listed = await pool.tools(as(sam), [linear], signal);
    expect(listed.tools.map((t) => t.qualifiedName)).toEqual(['linear__authorize']);
    expect(sent).toEqual([]);
    const asked = await pool.call(as(sam), linear, 'authorize', {}, signal);
    expect(asked).toEqual({ ok: false, output: 'linear needs authorization; @sam was sent a link.' });
    expect(sent.map((s) => s.to)).toEqual(['sam']);
    const link = /(http:\/\/\S+)$/.exec(sent[0]?.text ?? '')?.[1] ?? '';
    expect((await followAuthorizationLink(link)).status).toBe(200);

    // The turn that offered linear__authorize may call it again: it is told, not sent a link.
    expect(await pool.call(as(sam), linear, 'authorize', {}, signal)).toEqual({
      ok: true,
      output: 'linear is authorized now: its tools are offered from the next turn on.',
    });
    // Sam's calls now use Sam's token.
    expect(await pool.call(as(sam), linear, 'whoami', {}, signal)).toEqual({ ok: true, output: 'person-1' });
    // Kim's call does not reuse Sam's connection: Kim is asked, privately, for Kim's own.
    expect(await pool.call(as(kim), linear, 'whoami', {}, signal)).toEqual({
      ok: false,
      output: 'linear needs authorization; @kim was sent a link.',
    });
    expect(sent.map((s) => s.to)).toEqual(['sam', 'kim']);
    expect(await pool.call(as(sam), linear, 'whoami', {}, signal)).toEqual({ ok: true, output: 'person-1' });
  });

  it('E5 a call made for no member is told why, and nobody is sent anything', async () => {
    const before = sent.length;
    const outcome = await pool.call({ workspaceId, memberId: null }, linear, 'whoami', {}, signal);
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toContain("linear uses each member's own authorization (`tokens: member`)");
    expect(sent.length).toBe(before);
  });
});
