import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * GitHub's git smart-HTTP endpoint, played by the real `git http-backend` (CGI) behind a server
 * that requires GitHub's scheme: HTTP Basic `x-access-token:<token>` with a known token, or
 * 401 with `WWW-Authenticate: Basic realm="GitHub"`. Request bodies stream into the CGI (no
 * buffering), chunked or not; `Git-Protocol` and `Content-Encoding` are passed as CGI variables.
 */
export class GitHubGitStandIn {
  readonly tokens = new Set<string>();
  /** Every request, with the token used (for the assertions about credentials). */
  readonly seen: {
    method: string;
    url: string;
    user: string | null;
    token: string | null;
    status: number;
    gitProtocol: string | null;
  }[] = [];
  private server: Server | null = null;
  /**
   * A network failure mid-download: when set, a `git-upload-pack` response is cut (the socket
   * destroyed) after this many body bytes.
   */
  cutUploadPackAfter: number | null = null;
  /** Public repositories ("owner/name"): anyone may fetch them without a token, as on GitHub. */
  readonly publicRepos = new Set<string>();

  constructor(readonly root: string) {}

  async start(): Promise<string> {
    await mkdir(this.root, { recursive: true });
    this.server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (address === undefined) throw new Error('the stand-in is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  /** A bare repository `owner/name.git` (empty, or with what `git init` in HOME gives). */
  async createRepo(repo: string, home: string): Promise<string> {
    const dir = path.join(this.root, `${repo}.git`);
    await mkdir(path.dirname(dir), { recursive: true });
    await git(['init', '--bare', '-q', '-b', 'main', dir], home);
    await git(['--git-dir', dir, 'config', 'http.receivepack', 'true'], home);
    await git(['--git-dir', dir, 'config', 'receive.advertisePushOptions', 'true'], home);
    return dir;
  }

  /**
   * A checkout at `dir` with `files`, committed once and pushed to each of `branches` of `repo`
   * with `token` (one the stand-in knows), as a person would have filled the repository before
   * the test; the commit's id.
   */
  async seed(
    repo: string,
    options: { home: string; dir: string; token: string; files: Record<string, string>; branches: string[] },
  ): Promise<string> {
    const { home, dir } = options;
    await git(['init', '-q', '-b', 'main', dir], home);
    for (const [name, text] of Object.entries(options.files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    await git(['add', '.'], home, dir);
    await git(['commit', '-q', '-m', 'seed'], home, dir);
    const url = `${this.url.replace('://', `://x-access-token:${options.token}@`)}/${repo}.git`;
    for (const branch of options.branches) {
      const pushed = await git(['push', '-q', url, `HEAD:refs/heads/${branch}`], home, dir);
      if (pushed.code !== 0) throw new Error(`seeding ${repo} ${branch} failed: ${pushed.stderr}`);
    }
    return (await git(['rev-parse', 'HEAD'], home, dir)).stdout.trim();
  }

  /** A fetch (never a push) of a public repository. */
  private isPublicRead(req: IncomingMessage): boolean {
    const url = new URL(req.url ?? '/', 'http://x');
    const match = /^\/([^/]+\/[^/]+)\.git\/(info\/refs|git-upload-pack)$/.exec(url.pathname);
    if (match === null || !this.publicRepos.has(match[1] ?? '')) return false;
    return match[2] === 'git-upload-pack' || url.searchParams.get('service') === 'git-upload-pack';
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }

  private serve(req: IncomingMessage, res: ServerResponse) {
    const auth = req.headers.authorization ?? '';
    const decoded = /^basic /i.test(auth) ? Buffer.from(auth.slice(6), 'base64').toString() : '';
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? null : decoded.slice(0, colon);
    const token = colon < 0 ? null : decoded.slice(colon + 1);
    const authenticated = user === 'x-access-token' && token !== null && this.tokens.has(token);
    const ok = authenticated || (auth === '' && this.isPublicRead(req));
    this.seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      user,
      token,
      status: ok ? 200 : 401,
      gitProtocol: typeof req.headers['git-protocol'] === 'string' ? req.headers['git-protocol'] : null,
    });
    if (!ok) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="GitHub"', 'content-type': 'text/plain' });
      res.end('Invalid username or token. Password authentication is not supported for Git operations.\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: this.root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    };
    if (req.headers['content-length'] !== undefined) env.CONTENT_LENGTH = req.headers['content-length'];
    const cgi = spawn('git', ['http-backend'], { env });
    cgi.stderr.on('data', () => {});
    let head = Buffer.alloc(0);
    let headersDone = false;
    const cutAfter = url.pathname.endsWith('/git-upload-pack') ? this.cutUploadPackAfter : null;
    let sent = 0;
    const writeBody = (chunk: Buffer) => {
      if (cutAfter !== null && sent + chunk.length > cutAfter) {
        res.write(chunk.subarray(0, Math.max(0, cutAfter - sent)));
        sent = Number.POSITIVE_INFINITY;
        res.socket?.destroy();
        cgi.kill();
        return;
      }
      sent += chunk.length;
      res.write(chunk);
    };
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        writeBody(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const [key = '', ...value] = line.split(':');
        if (key.toLowerCase() === 'status') status = Number.parseInt(value.join(':').trim(), 10);
        else headers[key] = value.join(':').trim();
      }
      res.writeHead(status, headers);
      writeBody(head.subarray(end + 4));
    });
    cgi.on('close', () => res.end());
    cgi.stdin.on('error', () => {});
    req.pipe(cgi.stdin);
  }
}

/** `input`, when given, is written to git's stdin (e.g. `update-ref --stdin`). */
export function git(
  args: string[],
  home: string,
  cwd?: string,
  extraEnv: Record<string, string> = {},
  input?: string,
) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_TERMINAL_PROMPT: '0',
        GIT_AUTHOR_NAME: 'Dev',
        GIT_AUTHOR_EMAIL: 'dev@example.com',
        GIT_COMMITTER_NAME: 'Dev',
        GIT_COMMITTER_EMAIL: 'dev@example.com',
        ...extraEnv,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (input !== undefined) {
      // A git that exits before reading it all reports through its exit code, not EPIPE.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}
