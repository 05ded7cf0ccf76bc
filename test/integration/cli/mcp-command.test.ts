// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openRuntime } from '../../../src/app/runtime';
import { loadConfig } from '../../../src/config/config';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SqlStore } from '../../../src/storage/store/sql-store';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const FILE = `
workspace: acme
mcpServers:
  - name: tracker
    url: https://mcp.example.com/mcp
    headers: { Authorization: "Bearer \${env:SUMMON_TEST_MCP_TOKEN}" }
  - name: files
    command: npx
    args: [-y, "@example/files-mcp"]
    env: { FILES_TOKEN: "\${env:SUMMON_TEST_MCP_TOKEN}", ROOT: "\${env:SUMMON_TEST_MCP_ROOT}" }
  - name: plain
    command: /usr/local/bin/plain-mcp
agents:
  - { name: alice, mcpServers: [files] }
spaces:
  - { name: backend, mcpServers: [tracker, files] }
`;

/** E1, E2: `summon apply`, `summon export` and `summon mcp list` on an embedded database. */
describe('summon mcp list (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  const canary = `canary-${randomBytes(16).toString('hex')}`;
  const summon = (env: Record<string, string>, ...argv: string[]) =>
    runSummon(argv, {
      env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent', ...env },
      cwd: dataDir.path,
    });
  const withToken = { SUMMON_TEST_MCP_TOKEN: canary };

  const before = process.env.SUMMON_TEST_MCP_TOKEN;

  beforeAll(async () => {
    // E2: the canary is in this process's environment too, so that nothing could expand it
    // from there either.
    process.env.SUMMON_TEST_MCP_TOKEN = canary;
    dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    await writeFile(path.join(dataDir.path, 'acme.yaml'), FILE);
    expect(await summon(withToken, 'apply', 'acme.yaml')).toMatchObject({ code: 0 });
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.SUMMON_TEST_MCP_TOKEN;
    else process.env.SUMMON_TEST_MCP_TOKEN = before;
    await dataDir.remove();
  });

  it('E1 lists each server, its transport, who is given it, and whether its variables are set', async () => {
    const result = await summon({ ...withToken, SUMMON_TEST_MCP_ROOT: '' }, 'mcp', 'list', '-w', 'acme');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('MCP servers of workspace acme');
    expect(lines[1]?.split(/\s{2,}/)).toEqual(['NAME', 'TRANSPORT', 'GIVEN TO', 'VARIABLES']);
    expect(lines.slice(2, 5).map((line) => line.split(/\s{2,}/))).toEqual([
      [
        'files',
        'stdio',
        'space backend, agent alice',
        'SUMMON_TEST_MCP_ROOT (missing), SUMMON_TEST_MCP_TOKEN (set)',
      ],
      ['plain', 'stdio', '-', '-'],
      ['tracker', 'http', 'space backend', 'SUMMON_TEST_MCP_TOKEN (set)'],
    ]);
    expect(lines[5]).toMatch(/^missing: unset or empty where this command runs/);
  });

  it('E1 prints JSON with --json, and says when there is nothing or no such workspace', async () => {
    const json = await summon({}, 'mcp', 'list', '--workspace', 'acme', '--json');
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as { workspace: string; servers: unknown[] };
    expect(parsed.workspace).toBe('acme');
    expect(parsed.servers[2]).toEqual({
      name: 'tracker',
      transport: 'http',
      target: 'https://mcp.example.com/mcp',
      spaces: ['backend'],
      agents: [],
      variables: [{ name: 'SUMMON_TEST_MCP_TOKEN', set: false }],
    });
    expect(await summon({}, 'mcp', 'list', '-w', 'nope')).toMatchObject({
      code: 1,
      stderr: 'no workspace "nope"; create it with `summon workspace create nope`\n',
    });
    expect(await summon({}, 'workspace', 'create', 'empty')).toMatchObject({ code: 0 });
    expect(await summon({}, 'mcp', 'list', '-w', 'empty')).toMatchObject({
      code: 0,
      stdout: 'workspace empty declares no MCP servers\n',
    });
  });

  it('E2 keeps a referenced secret out of the database, the export and the listing', async () => {
    const exported = await summon(withToken, 'export', 'acme');
    const listed = await summon(withToken, 'mcp', 'list', '-w', 'acme', '--json');
    expect(exported.code).toBe(0);
    expect(listed.code).toBe(0);
    // The references themselves are there, as written.
    expect(exported.stdout).toContain('Bearer ${env:SUMMON_TEST_MCP_TOKEN}');
    expect(listed.stdout).toContain('"set": true');
    for (const output of [exported, listed]) expect(`${output.stdout}${output.stderr}`).not.toContain(canary);

    // Every row of every table, as text.
    const runtime = await openRuntime(loadConfig({ SUMMON_DATA_DIR: dataDir.path }), silentLogger);
    try {
      const store = runtime.database.store as SqlStore;
      const dump = await store.transaction(async (tx) => {
        const tables = await tx.query<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
        );
        const rows: string[] = [];
        for (const { name } of tables)
          rows.push(
            ...(await tx.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)).map((r) => r.row),
          );
        return { tables: tables.map((t) => t.name), rows: rows.join('\n') };
      });
      expect(dump.tables).toEqual(expect.arrayContaining(['mcp_servers', 'mcp_server_assignments']));
      expect(dump.rows).toContain('${env:SUMMON_TEST_MCP_TOKEN}');
      expect(dump.rows).not.toContain(canary);
    } finally {
      await runtime.close();
    }
  });
});
