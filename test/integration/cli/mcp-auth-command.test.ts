import { randomBytes } from 'node:crypto';
import { Command } from 'commander';
import { McpAuthorizationNeeded } from '../../../src/adapters/mcp-oauth/authorization-needed';
import { addMcpAuthCommands } from '../../../src/cli/commands/mcp-auth-command';
import type { McpServerSpec } from '../../../src/core/model/mcp/mcp-server';
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
import { makeTempDir } from '../../support/temp-dir';
import { openTestDatabase, type TestDatabase } from '../../support/test-database';

/** E5: `summon mcp login` / `logout` on PostgreSQL, against a local OAuth-protected MCP server. */
describe('summon mcp login and logout', () => {
  const key = randomBytes(32);
  let db: TestDatabase;
  let remote: ProtectedMcpServer;
  let summon: SummonOAuthSide;
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let workspaceId: string;
  let sam: string;
  let servers: McpServerSpec[];

  /** `summon mcp …` as `summon mcp`'s own file will mount it: the servers handed in. */
  const summonMcp = async (...argv: string[]) => {
    let stdout = '';
    const context = {
      output: {
        out: (text: string) => {
          stdout += `${text}\n`;
        },
        err: () => {},
      },
      env: {
        DATABASE_URL: db.databaseUrl,
        SUMMON_DATA_DIR: dataDir.path,
        SUMMON_PUBLIC_URL: summon.publicUrl,
        SUMMON_SECRET_KEY: key.toString('base64'),
        LOG_LEVEL: 'silent',
      },
      cwd: dataDir.path,
    };
    const program = new Command('summon').exitOverride();
    addMcpAuthCommands(program.command('mcp'), context, async (_runtime, id) =>
      id === workspaceId ? servers : [],
    );
    await program.parseAsync(['mcp', ...argv], { from: 'user' });
    return stdout;
  };

  beforeAll(async () => {
    dataDir = await makeTempDir();
    db = await openTestDatabase('postgres');
    remote = await startProtectedMcpServer();
    const store = db.database.store as SqlStore;
    summon = await startSummonOAuthSide(store, { secretKey: key });
    servers = [
      {
        name: 'linear',
        transport: 'http',
        url: remote.url,
        headers: {},
        auth: { kind: 'oauth', tokens: 'member' },
      },
      {
        name: 'notion',
        transport: 'http',
        url: remote.url,
        headers: {},
        auth: { kind: 'oauth', tokens: 'workspace' },
      },
      { name: 'open', transport: 'http', url: remote.url, headers: {} },
    ];
    await store.transaction(async (tx) => {
      workspaceId = (await tx.workspaces.insert({ slug: 'acme', name: 'Acme' })).id;
      sam = (
        await tx.members.insert(workspaceId, {
          nickname: 'sam',
          role: 'member',
          slackUserId: null,
          discordUserId: null,
        })
      ).id;
    });
  });

  afterAll(async () => {
    await summon.close();
    await remote.close();
    await db.dispose();
    await dataDir.remove();
  });

  it("E5 login prints a member's link; once followed, calls work; logout deletes and revokes the tokens", async () => {
    const printed = await summonMcp('login', 'linear', '-w', 'acme', '--member', 'sam');
    const [intro, link] = printed.trim().split('\n');
    expect(intro).toBe('Open this link to authorize linear for @sam (valid 15 minutes):');
    expect((await followAuthorizationLink(link ?? '')).page).toContain('Summon can now use linear');
    const asSam = { workspaceId, memberId: sam };
    const linear = servers[0] as McpServerSpec;
    await expect(summon.oauth.provider(asSam, linear)).resolves.toBeDefined();

    expect(await summonMcp('logout', 'linear', '-w', 'acme', '-m', '@sam')).toBe(
      "Deleted @sam's tokens for linear; its authorization server revoked them.\n",
    );
    expect(remote.oauth.revoked.length).toBe(2);
    await expect(summon.oauth.provider(asSam, linear)).rejects.toBeInstanceOf(McpAuthorizationNeeded);
    expect(await summonMcp('logout', 'linear', '-w', 'acme', '-m', 'sam')).toBe(
      'There were no tokens of @sam for linear.\n',
    );
  });

  it("E5 login for the workspace's tokens; wrong arguments are refused with a sentence", async () => {
    expect(await summonMcp('login', 'notion', '-w', 'acme')).toMatch(
      /^Open this link to authorize notion for workspace acme \(valid 15 minutes\):\nhttp:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    await expect(summonMcp('login', 'linear', '-w', 'acme')).rejects.toThrow(
      "linear uses each member's own tokens (`tokens: member`): name the member with --member <nickname>.",
    );
    await expect(summonMcp('login', 'notion', '-w', 'acme', '-m', 'sam')).rejects.toThrow(
      "notion's tokens are the workspace's (`tokens: workspace`): leave out --member.",
    );
    await expect(summonMcp('login', 'open', '-w', 'acme')).rejects.toThrow(
      'open does not use OAuth (its entry has no `auth: oauth`).',
    );
    await expect(summonMcp('login', 'jira', '-w', 'acme')).rejects.toThrow(
      'Workspace acme declares no MCP server "jira" (it declares: linear, notion, open).',
    );
    await expect(summonMcp('login', 'linear', '-w', 'acme', '-m', 'kim')).rejects.toThrow(
      'Workspace acme has no member @kim.',
    );
    await expect(summonMcp('login', 'linear', '-w', 'nope')).rejects.toThrow('There is no workspace "nope".');
  });
});
