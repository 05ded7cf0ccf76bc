// biome-ignore-all lint/suspicious/noTemplateCurlyInString: E2: these strings are ${env:…} syntax, written out literally.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STDIO_SERVER } from '../../support/mcp/mcp-test-servers';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';
import { seedMigratedDataDir } from '../../support/test-database-templates';

const CANARY = `doctor-mcp-canary-${randomBytes(12).toString('hex')}`;

/** The report's line for a check, e.g. `line(out, 'mcp acme/tracker')`. */
const line = (stdout: string, name: string): string =>
  stdout.split('\n').find((l) => l.slice(6).startsWith(`${name}:`)) ?? `(no line for ${name})`;

/** O1, E1, E2, E5: `summon doctor`'s lines on each workspace's declared MCP servers. */
describe('summon doctor: MCP servers (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    await seedMigratedDataDir(dataDir.path);
    const file = `
workspace: acme
mcpServers:
  - name: tracker
    command: node
    args: [${JSON.stringify(STDIO_SERVER)}]
    env: { TRACKER_TOKEN: "\${env:SUMMON_TEST_DOCTOR_MCP_TOKEN}" }
  - name: broken
    command: node
    args: [${JSON.stringify(STDIO_SERVER)}]
    env: { API_KEY: "\${env:SUMMON_TEST_DOCTOR_MCP_MISSING}" }
  - name: stuck
    command: sleep
    args: ["600"]
  - name: notion
    url: https://notion.invalid/mcp
    auth: { kind: oauth, tokens: workspace }
`;
    await writeFile(path.join(dataDir.path, 'acme.yaml'), file);
    const applied = await runSummon(['apply', 'acme.yaml'], {
      env: { SUMMON_DATA_DIR: dataDir.path, LOG_LEVEL: 'silent' },
      cwd: dataDir.path,
    });
    expect(applied).toMatchObject({ code: 0 });
  });
  afterAll(async () => {
    await dataDir.remove();
  });

  it('O1 E1 each server: reachable with its tool count and time, a missing variable named, a hanging server bounded, OAuth settings checked', async () => {
    const started = Date.now();
    const result = await runSummon(['doctor'], {
      env: {
        SUMMON_DATA_DIR: dataDir.path,
        LOG_LEVEL: 'silent',
        SUMMON_TEST_DOCTOR_MCP_TOKEN: CANARY,
        SUMMON_MCP_CALL_TIMEOUT_SECONDS: '2',
      },
      cwd: dataDir.path,
    });
    // Bounded: the server that never answers costs its 2 s, not doctor's whole run.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.code).toBe(1);
    const out = result.stdout;
    expect(line(out, 'mcp acme/tracker')).toMatch(/^ok {4}mcp acme\/tracker: reachable, \d+ tools, \d+ ms$/);
    expect(line(out, 'mcp acme/broken')).toBe(
      'FAIL  mcp acme/broken: needs SUMMON_TEST_DOCTOR_MCP_MISSING, not set here → set SUMMON_TEST_DOCTOR_MCP_MISSING where Summon runs',
    );
    expect(line(out, 'mcp acme/stuck')).toMatch(/^FAIL {2}mcp acme\/stuck: unreachable after \d+ ms: /);
    expect(line(out, 'mcp acme/notion')).toMatch(/^FAIL {2}mcp acme\/notion: .*SUMMON_SECRET_KEY/);
    expect(out).toMatch(/^FAIL {2}mcp oauth: SUMMON_SECRET_KEY is unset; notion needs OAuth/m);
    expect(out).toMatch(/^FAIL {2}mcp oauth: SUMMON_PUBLIC_URL is unset/m);
    expect(`${out}${result.stderr}`).not.toContain(CANARY);
  });

  it('O1 says so when no workspace declares a server', async () => {
    const empty = await makeTempDir();
    try {
      await seedMigratedDataDir(empty.path);
      const result = await runSummon(['doctor'], {
        env: { SUMMON_DATA_DIR: empty.path, LOG_LEVEL: 'silent' },
        cwd: empty.path,
      });
      expect(line(result.stdout, 'mcp')).toBe('ok    mcp: no workspace declares an MCP server');
    } finally {
      await empty.remove();
    }
  });
});
