// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type HttpMcpServer, STDIO_SERVER, startHttpMcpServer } from '../../support/mcp/mcp-test-servers';
import {
  type ProtectedMcpServer,
  startProtectedMcpServer,
} from '../../support/mcp-oauth/protected-mcp-server';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const TOKEN = `tools-token-${randomBytes(12).toString('hex')}`;

/** E1, E5: `summon mcp tools`, `login` and `logout` through the real CLI, against the SDK's test servers. */
describe('summon mcp tools|login|logout (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let http: HttpMcpServer;
  let protectedServer: ProtectedMcpServer;
  const env = () => ({
    SUMMON_DATA_DIR: dataDir.path,
    LOG_LEVEL: 'silent',
    SUMMON_TEST_MCP_TOOLS_TOKEN: TOKEN,
    SUMMON_SECRET_KEY: randomBytes(32).toString('base64'),
    SUMMON_PUBLIC_URL: 'http://127.0.0.1:9/summon',
  });
  const summon = (...argv: string[]) => runSummon(argv, { env: env(), cwd: dataDir.path });

  beforeAll(async () => {
    dataDir = await makeTempDir();
    http = await startHttpMcpServer(`Bearer ${TOKEN}`);
    protectedServer = await startProtectedMcpServer();
    await seedMigratedDataDir(dataDir.path);
    const file = `
workspace: acme
mcpServers:
  - name: tracker
    command: node
    args: [${JSON.stringify(STDIO_SERVER)}]
  - name: remote
    url: ${http.url}
    headers: { Authorization: "Bearer \${env:SUMMON_TEST_MCP_TOOLS_TOKEN}" }
  - name: broken
    command: node
    args: [${JSON.stringify(STDIO_SERVER)}]
    env: { API_KEY: "\${env:SUMMON_TEST_MCP_TOOLS_MISSING}" }
  - name: notion
    url: ${protectedServer.url}
    auth: { kind: oauth, tokens: workspace }
  - name: linear
    url: ${protectedServer.url}
    auth: { kind: oauth, tokens: member }
members:
  - { nickname: sam, role: member }
`;
    await writeFile(path.join(dataDir.path, 'acme.yaml'), file);
    expect(await summon('apply', 'acme.yaml')).toMatchObject({ code: 0 });
  });
  afterAll(async () => {
    await http.close();
    await protectedServer.close();
    await dataDir.remove();
  });

  it('E1 lists each server’s tools through Summon’s client, or why it is unavailable', async () => {
    const result = await summon('mcp', 'tools', '-w', 'acme');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const out = result.stdout;
    expect(out).toMatch(/^tracker: \d+ tools$/m);
    expect(out).toMatch(/^tracker__search\s+yes\s+Search the issues \(read-only\)\.$/m);
    expect(out).toMatch(/^tracker__create_issue\s+no\s+Create an issue\.$/m);
    expect(out).toMatch(/^remote: \d+ tools$/m);
    expect(out).toMatch(/^remote__search\s+yes\s+/m);
    // E2: the missing variable is named; its value (or the present one's) is never printed.
    expect(out).toContain('broken: unavailable: The MCP server broken needs SUMMON_TEST_MCP_TOOLS_MISSING');
    expect(out).toContain('notion: unavailable: it needs authorization: run `summon mcp login notion`');
    expect(out).not.toContain(TOKEN);
  });

  it('E1 --server narrows to one server, --json prints the same; an unknown server is a sentence', async () => {
    const json = await summon('mcp', 'tools', '-w', 'acme', '--server', 'tracker', '--json');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      servers: { name: string; available: boolean; tools: { name: string; readOnly: boolean }[] }[];
    };
    expect(parsed.servers.map((s) => s.name)).toEqual(['tracker']);
    expect(parsed.servers[0]?.available).toBe(true);
    expect(parsed.servers[0]?.tools).toContainEqual({
      name: 'tracker__search',
      readOnly: true,
      description: 'Search the issues (read-only).',
    });
    expect(await summon('mcp', 'tools', '-w', 'acme', '--server', 'nope')).toMatchObject({
      code: 1,
      stderr:
        'Workspace acme declares no MCP server "nope" (it declares: broken, linear, notion, remote, tracker).\n',
    });
  });

  it('E5 a server with each member’s own tokens is listed as a named member, or says it has none', async () => {
    const nobody = await summon('mcp', 'tools', '-w', 'acme', '-s', 'linear');
    expect(nobody.stdout).toBe(
      "linear: unavailable: The MCP server linear could not start: linear uses each member's own authorization (`tokens: member`), and this call was made for no member.\n",
    );
    const sam = await summon('mcp', 'tools', '-w', 'acme', '-s', 'linear', '--member', '@sam');
    expect(sam.stdout).toBe(
      'linear: unavailable: it needs authorization: run `summon mcp login linear --member @sam`\n',
    );
    expect(await summon('mcp', 'tools', '-w', 'acme', '-m', 'nobody')).toMatchObject({
      code: 1,
      stderr: 'Workspace acme has no member @nobody.\n',
    });
  });

  it('E5 login prints the authorization link and logout says there were no tokens, mounted under summon mcp', async () => {
    const login = await summon('mcp', 'login', 'notion', '-w', 'acme');
    expect(login.code).toBe(0);
    expect(login.stdout).toMatch(
      /^Open this link to authorize notion for workspace acme \(valid 15 minutes\):\n/,
    );
    const link = new URL(login.stdout.trim().split('\n')[1] ?? '');
    expect(link.searchParams.get('redirect_uri')).toBe('http://127.0.0.1:9/summon/mcp/oauth/callback');
    expect(await summon('mcp', 'logout', 'notion', '-w', 'acme')).toMatchObject({
      code: 0,
      stdout: 'There were no tokens of workspace acme for notion.\n',
    });
    expect(await summon('mcp', 'login', 'tracker', '-w', 'acme')).toMatchObject({
      code: 1,
      stderr: 'tracker does not use OAuth (its entry has no `auth: oauth`).\n',
    });
  });
});
