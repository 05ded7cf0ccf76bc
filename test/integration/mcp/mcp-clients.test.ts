import { readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { mappedResolver } from '../../../src/adapters/egress-proxy/host-resolver';
import { expandFromEnv } from '../../../src/adapters/mcp/env-expansion';
import { McpClientPool, type McpClientPoolOptions } from '../../../src/adapters/mcp/mcp-client-pool';
import { BubblewrapLauncher } from '../../../src/adapters/sandbox/bubblewrap-launcher';
import { createProcessLauncher } from '../../../src/adapters/sandbox/create-process-launcher';
import { FairSemaphore } from '../../../src/adapters/sandbox/fair-semaphore';
import { createLogger } from '../../../src/app/logger';
import {
  envRef,
  type HttpMcpServer,
  STDIO_SERVER,
  startHttpMcpServer,
  stdioSpec,
} from '../../support/mcp/mcp-test-servers';
import { makeTempDir } from '../../support/temp-dir';

const WORKSPACE = { workspaceId: 'ws-1' };
const CANARY = 'canary-summon-env-5e1d77';
const TOKEN = 'tracker-token-SECRET-93ac1f';
/** The schema `search` declares (test-tools.cjs), which the model must get as is. */
const SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to look for.', minLength: 1, examples: ['flaky test'] },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    scope: { $ref: '#/$defs/scope' },
  },
  required: ['query'],
  additionalProperties: false,
  $defs: { scope: { type: 'string', enum: ['open', 'closed', 'all'] } },
};

describe('E2, E3 McpClientPool: Summon as the only MCP client', () => {
  let state: Awaited<ReturnType<typeof makeTempDir>>;
  let pools: McpClientPool[];
  let logs: string;
  const signal = new AbortController().signal;
  const env = { TRACKER_TOKEN: TOKEN, PLAIN: 'plain-value' };

  const pool = (options: Partial<McpClientPoolOptions> = {}) => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
    });
    const made = new McpClientPool({
      expand: expandFromEnv(env),
      launcher: createProcessLauncher({ processConcurrency: 8 }),
      logger: createLogger({ level: 'debug', destination: stream }),
      stateDir: state.path,
      callTimeoutMs: 4000,
      ...options,
    });
    pools.push(made);
    return made;
  };
  /** The private folders of the stdio servers alive now (one per running process). */
  const serverFolders = async () => (await readdir(state.path)).filter((name) => name.startsWith('tracker-'));

  beforeEach(async () => {
    state = await makeTempDir('summon-mcp-state-');
    pools = [];
    logs = '';
    process.env.SUMMON_MCP_CANARY = CANARY;
  });
  afterEach(async () => {
    delete process.env.SUMMON_MCP_CANARY;
    for (const made of pools) await made.close();
    await state.remove();
  });

  it('E1 E3 lists a sandboxed stdio server’s tools once, named <server>__<tool>, schemas unchanged, read-only from the annotation', async () => {
    const clients = pool();
    const listed = await clients.tools(WORKSPACE, [stdioSpec()], signal);
    expect(listed.unavailable).toEqual([]);
    const search = listed.tools.find((tool) => tool.tool === 'search');
    expect(search).toEqual({
      server: 'tracker',
      tool: 'search',
      qualifiedName: 'tracker__search',
      description: 'Search the issues (read-only).',
      inputSchema: SEARCH_SCHEMA,
      readOnly: true,
    });
    expect(listed.tools.find((tool) => tool.tool === 'create_issue')?.readOnly).toBe(false);
    // One process for the pool's key, listed from memory the second time.
    await clients.tools(WORKSPACE, [stdioSpec()], signal);
    expect(await serverFolders()).toHaveLength(1);
    // Another workspace: a connection of its own.
    await clients.tools({ workspaceId: 'ws-2' }, [stdioSpec()], signal);
    expect(await serverFolders()).toHaveLength(2);
  });

  it('E3 answers reach the model as text: text, isError with the server’s words, an image as a sentence, a long answer cut', async () => {
    const clients = pool({ maxResultChars: 100 });
    const call = (tool: string, args: Record<string, unknown> = {}) =>
      clients.call(WORKSPACE, stdioSpec(), tool, args, signal);
    expect(await call('search', { query: 'flaky' })).toEqual({
      ok: true,
      output: 'found 2 issues for "flaky"',
    });
    expect(await call('failing')).toEqual({ ok: false, output: 'the tracker is down for maintenance' });
    expect(await call('picture')).toEqual({
      ok: true,
      output: '[an image (image/png, 3000 bytes), not shown]\na blank picture',
    });
    const long = await call('read_path', { path: STDIO_SERVER });
    expect(long.ok).toBe(true);
    expect(long.output).toMatch(
      /\n\[tracker__read_path answered [\d,]+ characters; only the first 100 are shown\.\]$/,
    );
  });

  it('E3 a server that exits during a call: the call is a sentence, and the next call starts it again', async () => {
    const clients = pool();
    const call = (tool: string, args: Record<string, unknown> = {}) =>
      clients.call(WORKSPACE, stdioSpec(), tool, args, signal);
    expect((await call('search', { query: 'a' })).ok).toBe(true);
    expect(await call('crash')).toEqual({
      ok: false,
      output:
        'The MCP server tracker stopped before answering tracker__crash; it is started again on the next call.',
    });
    expect(await call('search', { query: 'b' })).toEqual({ ok: true, output: 'found 2 issues for "b"' });
  });

  it('E3 garbage on stdout, a 10 MB answer and a hang are each a sentence; the server goes on or starts again', async () => {
    const clients = pool({ callTimeoutMs: 1500, maxMessageBytes: 2 * 1024 ** 2 });
    const call = (tool: string) => clients.call(WORKSPACE, stdioSpec(), tool, { query: tool }, signal);
    expect(await call('garbage')).toEqual({
      ok: false,
      output:
        'The MCP server tracker answered tracker__garbage with something that is not a valid MCP answer.',
    });
    expect(await call('hang')).toEqual({
      ok: false,
      output: 'The MCP server tracker did not answer tracker__hang within 2 s.',
    });
    expect(await call('huge')).toEqual({
      ok: false,
      output: 'The MCP server tracker answered tracker__huge with more than 2 MB; the answer was dropped.',
    });
    expect(await call('search')).toEqual({ ok: true, output: 'found 2 issues for "search"' });
  });

  it('E3 a turn stopped while its server starts does not stop the start for another turn', async () => {
    const clients = pool();
    const stopped = new AbortController();
    const first = clients.tools(WORKSPACE, [stdioSpec()], stopped.signal);
    const second = clients.tools(WORKSPACE, [stdioSpec()], signal);
    stopped.abort();
    expect((await first).unavailable).toEqual([
      { server: 'tracker', reason: 'The call to its tools list was stopped with the turn.' },
    ]);
    expect((await second).unavailable).toEqual([]);
    expect((await second).tools.length).toBeGreaterThan(0);
  });

  it('E3 a call stopped with the turn is a sentence', async () => {
    const clients = pool();
    const stop = new AbortController();
    const pending = clients.call(WORKSPACE, stdioSpec(), 'hang', {}, stop.signal);
    setTimeout(() => stop.abort(), 300);
    expect(await pending).toEqual({
      ok: false,
      output: 'The call to tracker__hang was stopped with the turn.',
    });
  });

  it('E3 X1 a stdio server sees only the variables its entry names, and no file it was not given', async () => {
    const outside = await makeTempDir('summon-mcp-outside-');
    try {
      await writeFile(path.join(outside.path, 'secret.txt'), 'not for the server');
      const given = await makeTempDir('summon-mcp-given-');
      await writeFile(path.join(given.path, 'config.json'), '{"given":true}');
      const spec = stdioSpec({
        env: { TRACKER_TOKEN: envRef('TRACKER_TOKEN') },
        readOnlyPaths: [given.path],
      });
      const clients = pool();
      const environment = await clients.call(WORKSPACE, spec, 'environment', {}, signal);
      const seen = JSON.parse(environment.output) as Record<string, string>;
      // (PWD and SHLVL: set by the sandbox's launching shell.)
      expect(Object.keys(seen).sort()).toEqual([
        'HOME',
        'LOGNAME',
        'PATH',
        'PWD',
        'SHLVL',
        'TMPDIR',
        'TRACKER_TOKEN',
        'USER',
      ]);
      expect(seen.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
      expect(environment.output).not.toContain(CANARY);
      // E2: the server has its credential; the model never reads it, even when the server repeats it.
      expect(environment.output).not.toContain(TOKEN);
      expect(seen.TRACKER_TOKEN).toBe('[redacted]');
      expect(
        await clients.call(
          WORKSPACE,
          spec,
          'read_path',
          { path: path.join(outside.path, 'secret.txt') },
          signal,
        ),
      ).toEqual({
        ok: true,
        output: 'cannot read: ENOENT',
      });
      expect(
        await clients.call(
          WORKSPACE,
          spec,
          'read_path',
          { path: path.join(given.path, 'config.json') },
          signal,
        ),
      ).toEqual({
        ok: true,
        output: '{"given":true}',
      });
      await given.remove();
    } finally {
      await outside.remove();
    }
    expect(logs).not.toContain(TOKEN);
  });

  it('X2 E3 a stdio server reaches only its allowed domains, through its own proxy; none at all without any', async () => {
    const site: Server = createServer((_req, res) => res.end('hello from the site'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    try {
      const clients = pool({
        resolve: mappedResolver({ 'allowed.test': '127.0.0.1', 'other.test': '127.0.0.1' }),
      });
      const spec = stdioSpec({ allowedDomains: ['allowed.test'] });
      const fetch = (url: string, entry = spec) =>
        clients.call(WORKSPACE, entry, 'fetch_url', { url }, signal);
      expect((await fetch(`http://allowed.test:${port}/`)).output).toBe('status 200: hello from the site');
      expect((await fetch(`http://other.test:${port}/`)).output).toBe(
        'status 403: Refused: other.test is not among the allowed domains of the MCP server tracker.',
      );
      expect((await fetch(`http://127.0.0.1:${port}/`)).output).toBe(
        'status 403: Refused: 127.0.0.1 is not among the allowed domains of the MCP server tracker.',
      );
      // No allowed domains: no proxy, and the host's loopback is not the sandbox's.
      expect((await fetch(`http://127.0.0.1:${port}/`, stdioSpec({ name: 'offline' }))).output).toBe(
        'error: ECONNREFUSED',
      );
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });

  it('E2 an HTTP server gets its header expanded from an env reference; the value never reaches what the model reads or the log', async () => {
    let http: HttpMcpServer | undefined;
    try {
      http = await startHttpMcpServer(`Bearer ${TOKEN}`);
      const clients = pool();
      const spec = http.spec({ Authorization: `Bearer ${envRef('TRACKER_TOKEN')}` });
      const listed = await clients.tools(WORKSPACE, [spec], signal);
      expect(listed.unavailable).toEqual([]);
      expect(listed.tools.map((tool) => tool.qualifiedName)).toContain('remote__search');
      expect(await clients.call(WORKSPACE, spec, 'search', { query: 'q' }, signal)).toEqual({
        ok: true,
        output: 'found 2 issues for "q"',
      });
      const environment = await clients.call(WORKSPACE, spec, 'environment', {}, signal);
      expect(environment.output).toContain(`"MCP_EXPECT_AUTHORIZATION":"Bearer [redacted]"`);
      expect(http.refused).toEqual([]);
      // E3: an HTTP answer is read up to the limit, no further.
      expect(await clients.call(WORKSPACE, spec, 'huge', {}, signal)).toEqual({
        ok: false,
        output: 'The MCP server remote answered remote__huge with more than 8 MB; the answer was dropped.',
      });
      expect((await clients.call(WORKSPACE, spec, 'search', { query: 'after' }, signal)).ok).toBe(true);
      // E2: a variable that is not set is named, and nothing is sent without it.
      const missing = http.spec({ Authorization: `Bearer ${envRef('NOT_SET_TOKEN')}` }, 'other');
      expect(await clients.tools(WORKSPACE, [missing], signal)).toEqual({
        tools: [],
        unavailable: [
          {
            server: 'other',
            reason: "The MCP server other needs NOT_SET_TOKEN, which is not set in Summon's environment.",
          },
        ],
      });
      expect(http.refused).toEqual([]);
      // A wrong credential: the server refuses, and the sentence says which server.
      const wrong = http.spec({ Authorization: `Bearer ${envRef('PLAIN')}` }, 'wrong');
      const refused = await clients.tools(WORKSPACE, [wrong], signal);
      expect(refused.unavailable[0]?.server).toBe('wrong');
      expect(refused.unavailable[0]?.reason).toMatch(
        /^The MCP server wrong could not be asked for its tools list: /,
      );
      expect(http.refused).toContain('Bearer plain-value');
    } finally {
      await http?.close();
    }
    expect(logs).not.toContain(TOKEN);
  });

  it('E3 a server with a cwd starts there, read-only, and finds its relative args there', async () => {
    const clients = pool();
    const spec = stdioSpec({ cwd: path.dirname(STDIO_SERVER), args: ['stdio-server.cjs'] });
    const read = await clients.call(WORKSPACE, spec, 'read_path', { path: 'stdio-server.cjs' }, signal);
    expect(read.output).toContain("require('./test-tools.cjs')");
    // Its cwd is not its to write: the call log cannot be written there.
    const written = await clients.call(WORKSPACE, spec, 'create_issue', { title: 'x' }, signal);
    expect(written.ok).toBe(false);
    expect(written.output).toContain('EROFS');
  });

  it('E1 a server that says its tools changed is listed again', async () => {
    const clients = pool();
    const names = async () =>
      (await clients.tools(WORKSPACE, [stdioSpec()], signal)).tools.map((tool) => tool.qualifiedName);
    expect(await names()).not.toContain('tracker__late');
    expect(await clients.call(WORKSPACE, stdioSpec(), 'add_tool', {}, signal)).toEqual({
      ok: true,
      output: 'added',
    });
    expect(await names()).toContain('tracker__late');
  });

  it('E3 an idle connection is closed (its process and folder gone) and the next call connects again', async () => {
    const clients = pool({ idleMs: 300 });
    expect((await clients.call(WORKSPACE, stdioSpec(), 'search', { query: 'a' }, signal)).ok).toBe(true);
    expect(await serverFolders()).toHaveLength(1);
    const deadline = Date.now() + 10_000;
    while ((await serverFolders()).length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await serverFolders()).toEqual([]);
    expect((await clients.call(WORKSPACE, stdioSpec(), 'search', { query: 'b' }, signal)).ok).toBe(true);
  });

  it('E3 a call longer than the idle time keeps its connection until it ends', async () => {
    const clients = pool({ idleMs: 200, callTimeoutMs: 1500 });
    expect((await clients.call(WORKSPACE, stdioSpec(), 'search', { query: 'a' }, signal)).ok).toBe(true);
    expect(await clients.call(WORKSPACE, stdioSpec(), 'hang', {}, signal)).toEqual({
      ok: false,
      output: 'The MCP server tracker did not answer tracker__hang within 2 s.',
    });
  });

  it('X4 E3 without a sandbox no server starts: its tools are absent and the sentence says why', async () => {
    const clients = pool({
      launcher: new BubblewrapLauncher(new FairSemaphore(2), { bwrap: '/nonexistent/bwrap' }),
    });
    const listed = await clients.tools(WORKSPACE, [stdioSpec()], signal);
    expect(listed.tools).toEqual([]);
    expect(listed.unavailable).toHaveLength(1);
    expect(listed.unavailable[0]?.reason).toMatch(/^The MCP server tracker could not start: /);
    expect(await serverFolders()).toEqual([]);
  });

  it('E2 an entry whose references cannot be expanded: a sentence, nothing started', async () => {
    const clients = pool({
      expand: () => {
        throw new Error('MCP server "tracker" has a malformed reference: an empty variable name.');
      },
    });
    expect(await clients.tools(WORKSPACE, [stdioSpec()], signal)).toEqual({
      tools: [],
      unavailable: [
        {
          server: 'tracker',
          reason: 'MCP server "tracker" has a malformed reference: an empty variable name.',
        },
      ],
    });
    expect(await serverFolders()).toEqual([]);
  });

  it('X2 E1 an HTTP entry pointing at one of Summon’s own ports is not connected to', async () => {
    const clients = pool({ forbiddenPorts: [5432] });
    const spec = { name: 'db', transport: 'http' as const, url: 'http://127.0.0.1:5432/mcp', headers: {} };
    expect(await clients.tools(WORKSPACE, [spec], signal)).toEqual({
      tools: [],
      unavailable: [
        {
          server: 'db',
          reason:
            "The MCP server db could not start: its url points at port 5432 of this host, one of Summon's own.",
        },
      ],
    });
  });

  it('E3 a program that does not exist: a sentence naming it', async () => {
    const listed = await pool().tools(WORKSPACE, [stdioSpec({ command: 'no-such-mcp-server' })], signal);
    expect(listed.unavailable).toEqual([
      {
        server: 'tracker',
        reason: 'The MCP server tracker could not start: its program no-such-mcp-server was not found.',
      },
    ]);
  });
});
