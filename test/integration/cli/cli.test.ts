import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runSummon } from '../../support/run-summon';
import { makeTempDir } from '../../support/temp-dir';

/** Runs `summon …` in-process on an embedded database in a fresh data folder. */
function cli(dataDir: string) {
  return async (...argv: string[]) => {
    return runSummon(argv, { env: { SUMMON_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, cwd: dataDir });
  };
}

describe('the summon command (embedded PGlite)', () => {
  let dataDir: Awaited<ReturnType<typeof makeTempDir>>;
  let summon: ReturnType<typeof cli>;

  beforeAll(async () => {
    dataDir = await makeTempDir();
    summon = cli(dataDir.path);
  });
  afterAll(() => dataDir.remove());

  it('migrates on demand and then has nothing left to do', async () => {
    const first = await summon('db', 'migrate');
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pglite: ran /) });
    expect(await summon('db', 'migrate')).toMatchObject({
      code: 0,
      stdout: 'pglite: schema is up to date\n',
    });
  });

  it('creates a workspace, lists and shows its agents with their live status', async () => {
    expect((await summon('workspace', 'create', 'acme')).stdout).toMatch(
      /^created workspace acme; seeded ceo, qa/,
    );
    expect((await summon('workspace', 'create', 'acme')).stdout).toMatch(/^already exists: workspace acme\n/);

    const list = await summon('agents', 'list', '--workspace', 'acme');
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TITLE\s+REPORTS TO\s+RUNNER\s+STATUS$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[0])).toEqual([
      'ceo',
      'qa',
      'architect',
      'engineer',
      'librarian',
    ]);
    expect(lines[2]).toMatch(/^qa\s+Quality engineer\s+ceo\s+builtin\/default model\s+neverRun$/);

    const show = JSON.parse((await summon('agents', 'show', 'engineer', '-w', 'acme', '--json')).stdout);
    expect(show).toMatchObject({
      name: 'engineer',
      reportsTo: 'ceo',
      status: 'neverRun',
      adapter: 'builtin',
    });
    expect(show.folder).toBe(path.join(dataDir.path, 'workspaces/acme/agents/engineer'));
  });

  it('applies a file, exports it back, and the export applies as no change', async () => {
    const fixture = path.join(__dirname, '../../fixtures/workspaces/acme.yaml');
    const applied = await summon('apply', fixture);
    expect(applied).toMatchObject({ code: 0, stdout: expect.stringContaining('  + agent alice') });

    const exported = await summon('export', 'acme');
    expect(exported.code).toBe(0);
    const exportFile = path.join(dataDir.path, 'export.yaml');
    await writeFile(exportFile, exported.stdout);
    expect(await summon('apply', exportFile)).toMatchObject({
      code: 0,
      stdout: 'workspace acme: no change\n',
    });

    expect(await summon('export', 'acme', '-o', 'again.yaml')).toMatchObject({ code: 0, stdout: '' });
    expect(await readFile(path.join(dataDir.path, 'again.yaml'), 'utf8')).toBe(
      exported.stdout.replace(/\n$/, ''),
    );
  });

  it('G2: explains which guardrail rule decides, and why', async () => {
    const space = await summon(
      'guardrails',
      'explain',
      '-w',
      'acme',
      '-a',
      'alice',
      '-s',
      'backend',
      '--action',
      'push_to_remote',
    );
    expect(space.code).toBe(0);
    expect(space.stdout).toMatch(/^push_to_remote: deny\n/);
    expect(space.stdout).toContain('space:backend push_to_remote = deny');

    const agent = await summon(
      'guardrails',
      'explain',
      '-w',
      'acme',
      '-a',
      'alice',
      '--action',
      'open_pull_request',
    );
    expect(agent.stdout).toMatch(/^open_pull_request: allow\n/);

    const fallback = await summon(
      'guardrails',
      'explain',
      '-w',
      'acme',
      '-a',
      'qa',
      '--action',
      'push_to_remote',
    );
    expect(fallback.stdout).toMatch(/^push_to_remote: ask\n/);

    expect(await summon('guardrails', 'explain', '-w', 'acme', '-a', 'qa', '--action', 'fly')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^unknown action "fly"; use one of commit, push_to_remote/),
    });
  });

  it('E4: explains which rule decides an MCP call to one tool; --tool only goes with --action mcp', async () => {
    const explain = (...rest: string[]) =>
      summon('guardrails', 'explain', '-w', 'acme', '-a', 'alice', '-s', 'backend', ...rest);
    const exact = await explain('--action', 'mcp', '--tool', 'linear__list_issues');
    expect(exact.stdout).toMatch(/^mcp linear__list_issues: allow\n/);
    expect(exact.stdout).toContain('space:backend mcp linear__list_issues = allow decides');
    expect(exact.stdout).toContain('Same scope, broader tool: space:backend mcp linear__* = deny');
    const wildcard = await explain('--action', 'mcp', '--tool', 'linear__create_issue');
    expect(wildcard.stdout).toMatch(/^mcp linear__create_issue: deny\n/);
    const none = await explain('--action', 'mcp', '--tool', 'github__create_pr');
    expect(none.stdout).toMatch(/^mcp github__create_pr: ask\n/);
    expect(none.stdout).toContain('allow instead if the server annotates the tool read-only');
    expect(await explain('--action', 'commit', '--tool', 'linear__*')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        '--tool names an MCP tool, so it goes only with --action mcp, not with "commit".',
      ),
    });
  });

  it('refuses a bad file with every problem by path and exit code 1', async () => {
    const bad = path.join(dataDir.path, 'bad.yaml');
    await writeFile(
      bad,
      'workspace: acme\nagents:\n  - { name: x, silenceTimeoutMinutes: 0, colour: red }\n',
    );
    const result = await summon('apply', bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${bad} was refused; nothing was written\n` +
        '  agents[0].silenceTimeoutMinutes: must be 1..240\n  agents[0].colour: unknown key\n',
    );
  });

  it('says what to do for an unknown workspace, agent or file', async () => {
    expect(await summon('agents', 'list', '-w', 'nope')).toMatchObject({
      code: 1,
      stderr: 'no workspace "nope"; create it with `summon workspace create nope`\n',
    });
    expect((await summon('agents', 'show', 'zed', '-w', 'acme')).stderr).toMatch(
      /^no agent "zed" in workspace "acme"/,
    );
    expect((await summon('apply', 'missing.yaml')).stderr).toMatch(/^cannot read missing.yaml: ENOENT/);
  });

  it.each([
    [[]],
    [['db']],
    [['db', 'migrate']],
    [['workspace', 'create']],
    [['apply']],
    [['export']],
    [['agents', 'list']],
    [['agents', 'show']],
    [['schema']],
    [['guardrails', 'explain']],
    [['start']],
    [['serve']],
    [['chat']],
  ])('has --help on %j', async (words) => {
    const result = await summon(...words, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: summon/);
  });
});

describe('summon start (the process npm start runs)', () => {
  it('starts on PGlite with nothing configured, creates the default workspace, serves /healthz, stops on SIGTERM', async () => {
    const dataDir = await makeTempDir();
    try {
      const child = spawn(
        process.execPath,
        [require.resolve('tsx/cli'), path.join(__dirname, '../../../src/cli/main.ts'), 'start'],
        { cwd: dataDir.path, env: { PATH: process.env.PATH, PORT: '0', HOME: dataDir.path }, stdio: 'pipe' },
      );
      let logs = '';
      child.stderr.on('data', (chunk: Buffer) => {
        logs += chunk.toString();
      });
      const ready = await new Promise<{ port: number }>((resolve, reject) => {
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${logs}`)));
        child.stderr.on('data', () => {
          const line = logs.split('\n').find((l) => l.includes('"summon is ready"'));
          if (line) resolve(JSON.parse(line));
        });
      });
      const health = await fetch(`http://127.0.0.1:${ready.port}/healthz`);
      // X4: the sandbox's state is part of the status (on and available here).
      expect(await health.json()).toEqual({ status: 'ok', database: 'pglite', sandbox: 'bubblewrap' });
      expect(logs).toContain('"created the default workspace"');

      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(
        (await readFile(path.join(dataDir.path, '.summon/workspaces/default/agents/ceo/AGENTS.md'), 'utf8'))
          .length,
      ).toBeGreaterThan(0);
    } finally {
      await dataDir.remove();
    }
    // A liveness bound: tsx compiles the whole CLI at start, which takes most of a minute on a busy machine.
  }, 180_000);
});
