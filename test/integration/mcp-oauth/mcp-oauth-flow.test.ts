import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { askForAuthorization } from '../../../src/adapters/mcp-oauth/ask-for-authorization';
import { McpAuthorizationNeeded } from '../../../src/adapters/mcp-oauth/authorization-needed';
import { McpOAuth } from '../../../src/adapters/mcp-oauth/mcp-oauth';
import type { McpHttpServerSpec } from '../../../src/core/model/mcp/mcp-server';
import type { MemberRecord } from '../../../src/core/model/records';
import { silentLogger } from '../../../src/core/ports/logger';
import type { McpCallContext } from '../../../src/core/ports/mcp-clients';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import {
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../../support/mcp-oauth/protected-mcp-server';
import {
  followAuthorizationLink,
  type SummonOAuthSide,
  startSummonOAuthSide,
} from '../../support/mcp-oauth/summon-callback-server';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

const spec = (url: string, tokens: 'member' | 'workspace'): McpHttpServerSpec => ({
  name: 'linear',
  transport: 'http',
  url,
  headers: {},
  auth: { kind: 'oauth', tokens },
});

/** E1, E5: one `whoami` call through the SDK's client, authorized by Summon's provider. */
async function whoami(oauth: McpOAuth, context: McpCallContext, server: McpHttpServerSpec): Promise<string> {
  const provider = await oauth.provider(context, server);
  const client = new Client({ name: 'summon-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const [first] = result.content as { type: string; text: string }[];
    return first?.text ?? '';
  } finally {
    await client.close();
  }
}

/** The raw stored rows: what someone reading the database would see. */
const rawRows = (store: SqlStore) =>
  store.transaction(async (tx) => [
    ...(await tx.query<Record<string, unknown>>('SELECT * FROM mcp_oauth_tokens')),
    ...(await tx.query<Record<string, unknown>>('SELECT * FROM mcp_oauth_clients')),
    ...(await tx.query<Record<string, unknown>>('SELECT * FROM mcp_oauth_pending')),
  ]);

const leaked = (text: string, secrets: readonly string[]) =>
  secrets.filter((secret) => text.includes(secret));

describe.each(DATABASE_KINDS)('E5: OAuth for a remote MCP server on %s', (kind) => {
  let db: TestDatabase;
  let store: SqlStore;
  let remote: ProtectedMcpServer;
  let summon: SummonOAuthSide;
  let workspaceId: string;
  let sam: string;
  let dana: string;

  beforeEach(async () => {
    db = await openTestDatabase(kind);
    store = db.database.store as SqlStore;
    remote = await startProtectedMcpServer();
    summon = await startSummonOAuthSide(store);
    await store.transaction(async (tx) => {
      const workspace = await tx.workspaces.insert({ slug: 'acme', name: 'Acme' });
      workspaceId = workspace.id;
      const fields = { slackUserId: null, discordUserId: null } as const;
      dana = (await tx.members.insert(workspaceId, { nickname: 'dana', role: 'owner', ...fields })).id;
      sam = (await tx.members.insert(workspaceId, { nickname: 'sam', role: 'member', ...fields })).id;
    });
  });

  afterEach(async () => {
    await summon.close();
    await remote.close();
    await db.dispose();
  });

  it('E5 a member authorizes from a link; the tokens are stored sealed, used, refreshed ahead of expiry and on a 401, then revoked by logout', async () => {
    const linear = spec(remote.url, 'member');
    const asSam = { workspaceId, memberId: sam };
    await expect(summon.oauth.provider(asSam, linear)).rejects.toBeInstanceOf(McpAuthorizationNeeded);

    // The link: dynamic registration done, PKCE and a state bound to sam, back to Summon's callback.
    const link = new URL(await summon.oauth.authorizationLink(asSam, linear));
    expect(link.origin + link.pathname).toBe(new URL('/authorize', remote.url).href);
    expect(link.searchParams.get('redirect_uri')).toBe(`${summon.publicUrl}/mcp/oauth/callback`);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(remote.oauth.clients.size).toBe(1);

    const done = await followAuthorizationLink(link.href);
    expect(done.status).toBe(200);
    expect(done.page).toContain('Summon can now use linear; you can close this tab.');

    // Sealed at rest: no token, client secret, code or verifier in any column.
    const rows = await rawRows(store);
    expect(rows.length).toBe(3);
    expect(leaked(JSON.stringify(rows), remote.oauth.secrets)).toEqual([]);
    expect(remote.oauth.secrets.length).toBeGreaterThanOrEqual(5);
    const [tokenRow] = await store.transaction((tx) =>
      tx.query<{ member_id: string; tokens_sealed: string }>(
        'SELECT member_id, tokens_sealed FROM mcp_oauth_tokens',
      ),
    );
    expect(tokenRow?.member_id).toBe(sam);
    expect(tokenRow?.tokens_sealed).toMatch(/^v1\./);

    expect(await whoami(summon.oauth, asSam, linear)).toBe('person-1');
    expect(remote.oauth.refreshes).toBe(0);

    // Ahead of expiry: with a minute left, the provider refreshes before sending anything.
    summon.clock.advance(3600_000 - 30_000);
    expect(await whoami(summon.oauth, asSam, linear)).toBe('person-1');
    expect(remote.oauth.refreshes).toBe(1);
    const [refreshed] = await store.transaction((tx) =>
      tx.query<{ tokens_sealed: string }>('SELECT tokens_sealed FROM mcp_oauth_tokens'),
    );
    expect(refreshed?.tokens_sealed).not.toBe(tokenRow?.tokens_sealed);

    // On a 401 (the server expired the token early): the SDK refreshes, the new tokens are stored.
    remote.oauth.expireAccessTokens();
    expect(await whoami(summon.oauth, asSam, linear)).toBe('person-1');
    expect(remote.oauth.refreshes).toBe(2);
    const callsBefore = remote.authorizedCalls;
    expect(await whoami(summon.oauth, asSam, linear)).toBe('person-1');
    expect(remote.oauth.refreshes).toBe(2);
    expect(remote.authorizedCalls).toBeGreaterThan(callsBefore);
    expect(leaked(JSON.stringify(await rawRows(store)), remote.oauth.secrets)).toEqual([]);

    // Logout: deleted here, revoked there (refresh token and access token).
    const out = await summon.oauth.logout(asSam, linear);
    expect(out).toEqual({ deleted: true, revocation: { kind: 'revoked' } });
    expect(remote.oauth.revoked.map((token) => token.slice(0, 3)).sort()).toEqual(['at-', 'rt-']);
    await expect(summon.oauth.provider(asSam, linear)).rejects.toBeInstanceOf(McpAuthorizationNeeded);
    expect(await summon.oauth.logout(asSam, linear)).toEqual({
      deleted: false,
      revocation: { kind: 'unsupported' },
    });

    // Nothing secret in the logs, which did record the flow.
    const logText = summon.logs.join('');
    expect(logText).toContain('E5: authorized');
    expect(logText).toContain('E5: stored OAuth tokens');
    expect(leaked(logText, remote.oauth.secrets)).toEqual([]);
  });

  it('E5 a call without tokens sends the right person one link privately, tells the model who, and does not send it again within five minutes', async () => {
    const sent: { to: string; text: string }[] = [];
    const deps = {
      oauth: summon.oauth,
      store,
      clock: summon.clock,
      logger: silentLogger,
      sendPrivately: async (member: MemberRecord, text: string) => {
        sent.push({ to: member.nickname, text });
      },
    };
    const asSam = { workspaceId, memberId: sam };
    const linear = spec(remote.url, 'member');
    expect(await askForAuthorization(deps, asSam, linear)).toBe(
      'linear needs authorization; @sam was sent a link.',
    );
    expect(sent.map((m) => m.to)).toEqual(['sam']);
    expect(await askForAuthorization(deps, asSam, linear)).toBe(
      'linear needs authorization; @sam was sent a link.',
    );
    expect(sent).toHaveLength(1);
    summon.clock.advance(5 * 60_000 + 1);
    await askForAuthorization(deps, asSam, linear);
    expect(sent).toHaveLength(2);

    // Workspace tokens: sam asked, the owner is sent the link; following it authorizes the workspace.
    const shared = spec(remote.url, 'workspace');
    expect(await askForAuthorization(deps, asSam, shared)).toBe(
      'linear needs authorization; @dana was sent a link.',
    );
    const link = /https?:\/\/\S+$/.exec(sent[2]?.text ?? '')?.[0] ?? '';
    expect(sent[2]?.to).toBe('dana');
    expect((await followAuthorizationLink(link)).status).toBe(200);
    expect(await whoami(summon.oauth, asSam, shared)).toBe('person-1');

    // A message that cannot be sent, a call for no member: a sentence for the model, never a throw.
    const failing = {
      ...deps,
      sendPrivately: async () => Promise.reject(new Error('the DM channel is closed')),
    };
    summon.clock.advance(5 * 60_000 + 1);
    expect(await askForAuthorization(failing, asSam, linear)).toBe(
      'linear needs authorization, and the link could not be sent to @sam: an operator can run `summon mcp login linear --member sam`.',
    );
    // Nobody got that one: the next call sends another at once.
    expect(await askForAuthorization(deps, asSam, linear)).toBe(
      'linear needs authorization; @sam was sent a link.',
    );
    expect(sent).toHaveLength(4);
    expect(await askForAuthorization(deps, { workspaceId, memberId: null }, linear)).toBe(
      'linear needs the authorization of the member a call is made for, and this call was made for no member.',
    );
  });

  it('E5 a call whose refresh is refused needs authorization again (the dead tokens are dropped)', async () => {
    const linear = spec(remote.url, 'member');
    const asSam = { workspaceId, memberId: sam };
    expect((await followAuthorizationLink(await summon.oauth.authorizationLink(asSam, linear))).status).toBe(
      200,
    );
    const stored = () =>
      store.transaction(async (tx) => {
        const [row] = await tx.query<{ n: string }>('SELECT count(*)::text AS n FROM mcp_oauth_tokens');
        return row?.n;
      });
    expect(await stored()).toBe('1');
    // The authorization server forgets the grant (revoked elsewhere): access and refresh both dead.
    const [client] = [...remote.oauth.clients.values()];
    const issued = remote.oauth.secrets.filter((s) => s.startsWith('rt-') || s.startsWith('at-'));
    for (const token of issued) if (client !== undefined) await remote.oauth.revokeToken(client, { token });
    await expect(whoami(summon.oauth, asSam, linear)).rejects.toBeInstanceOf(McpAuthorizationNeeded);
    expect(await stored()).toBe('0');
    await expect(summon.oauth.provider(asSam, linear)).rejects.toBeInstanceOf(McpAuthorizationNeeded);
  });

  it('E5 a missing, unknown, reused or expired state is refused with 400 and a sentence, and logged', async () => {
    const callback = `${summon.publicUrl}/mcp/oauth/callback`;
    const refused = async (url: string) => {
      const answer = await fetch(url);
      return { status: answer.status, page: await answer.text() };
    };
    expect(await refused(`${callback}?code=abc`)).toEqual({
      status: 400,
      page: expect.stringContaining(
        'This address has no state: open the authorization link Summon sent you.',
      ),
    });
    expect(await refused(`${callback}?code=abc&state=made-up`)).toEqual({
      status: 400,
      page: expect.stringContaining('This authorization is not one Summon started: ask for a new link.'),
    });

    const linear = spec(remote.url, 'member');
    const asSam = { workspaceId, memberId: sam };
    const first = await followAuthorizationLink(await summon.oauth.authorizationLink(asSam, linear));
    expect(first.status).toBe(200);
    expect(await refused(first.callback)).toEqual({
      status: 400,
      page: expect.stringContaining('This authorization link was already used: ask for a new one.'),
    });

    const late = await summon.oauth.authorizationLink(asSam, linear);
    summon.clock.advance(15 * 60_000 + 1);
    expect(await followAuthorizationLink(late)).toMatchObject({
      status: 400,
      page: expect.stringContaining(
        'This authorization link expired (links last 15 minutes): ask for a new one.',
      ),
    });

    // The person refused at the authorization server: the link is used up, the reason shown.
    const denied = new URL(await summon.oauth.authorizationLink(asSam, linear));
    const back = `${callback}?error=access_denied&error_description=the+person+said+no&state=${denied.searchParams.get('state')}`;
    expect(await refused(back)).toEqual({
      status: 400,
      page: expect.stringContaining(
        'linear&#39;s authorization server did not authorize Summon (the person said no).',
      ),
    });

    expect(summon.logs.filter((line) => line.includes('E5: an OAuth callback was refused')).length).toBe(5);

    // A day past their expiry, links are forgotten when a new one is made (the last two stay).
    summon.clock.advance(24 * 60 * 60_000);
    await summon.oauth.authorizationLink(asSam, linear);
    const [pending] = await store.transaction((tx) =>
      tx.query<{ n: string }>('SELECT count(*)::text AS n FROM mcp_oauth_pending'),
    );
    expect(pending?.n).toBe('2');
    expect(leaked(summon.logs.join(''), remote.oauth.secrets)).toEqual([]);
  });

  it("E5 workspace tokens serve every member's calls; member tokens are each member's own", async () => {
    const shared = spec(remote.url, 'workspace');
    const asDana = { workspaceId, memberId: dana };
    expect((await followAuthorizationLink(await summon.oauth.authorizationLink(asDana, shared))).status).toBe(
      200,
    );
    expect(await whoami(summon.oauth, { workspaceId, memberId: sam }, shared)).toBe('person-1');
    expect(await whoami(summon.oauth, { workspaceId, memberId: null }, shared)).toBe('person-1');
    const [row] = await store.transaction((tx) =>
      tx.query<{ member_id: string | null }>('SELECT member_id FROM mcp_oauth_tokens'),
    );
    expect(row?.member_id).toBeNull();

    const own = spec(remote.url, 'member');
    expect((await followAuthorizationLink(await summon.oauth.authorizationLink(asDana, own))).status).toBe(
      200,
    );
    expect(await whoami(summon.oauth, asDana, own)).toBe('person-2');
    await expect(summon.oauth.provider({ workspaceId, memberId: sam }, own)).rejects.toBeInstanceOf(
      McpAuthorizationNeeded,
    );
    // E5: `tokens: member` needs the call's member.
    await expect(summon.oauth.provider({ workspaceId, memberId: null }, own)).rejects.toThrow(
      "linear uses each member's own authorization (`tokens: member`), and this call was made for no member.",
    );
    // A2: another workspace sees none of them.
    const other = await store.transaction((tx) => tx.workspaces.insert({ slug: 'other', name: 'Other' }));
    const seen = await store.inWorkspace(other.id, (tx) =>
      tx.query<{ n: string }>('SELECT count(*)::text AS n FROM mcp_oauth_tokens'),
    );
    expect(seen[0]?.n).toBe('0');
  });

  it('E5 without SUMMON_SECRET_KEY or SUMMON_PUBLIC_URL, or with the server unreachable, a link is refused with a sentence', async () => {
    const linear = spec(remote.url, 'member');
    const asSam = { workspaceId, memberId: sam };
    const make = (settings: { secretKey: Buffer | undefined; publicUrl: string | undefined }) =>
      new McpOAuth({ store, clock: summon.clock, logger: silentLogger, settings });
    const noKey = make({ secretKey: undefined, publicUrl: summon.publicUrl });
    await expect(noKey.provider(asSam, linear)).rejects.toThrow(
      'linear needs OAuth, and Summon stores OAuth tokens only encrypted: set SUMMON_SECRET_KEY (32 bytes, hex or base64; make one with `openssl rand -base64 32`) and restart Summon.',
    );
    await expect(noKey.authorizationLink(asSam, linear)).rejects.toThrow('set SUMMON_SECRET_KEY');
    // A server that cannot be reached: a sentence naming it, not a bare network error.
    const gone = spec('http://127.0.0.1:1/mcp', 'member');
    await expect(summon.oauth.authorizationLink(asSam, gone)).rejects.toThrow(
      /^linear's authorization server could not be asked for a link \(.+\)\.$/,
    );
    const noUrl = make({ secretKey: Buffer.alloc(32, 1), publicUrl: undefined });
    await expect(noUrl.authorizationLink(asSam, linear)).rejects.toThrow(
      'linear needs OAuth, and its authorization server sends people back to SUMMON_PUBLIC_URL/mcp/oauth/callback: set SUMMON_PUBLIC_URL to where people reach Summon and restart it.',
    );
  });
});
