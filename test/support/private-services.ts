import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster and a Redis server of a test's own, on loopback ports of their own, that
 * the test may stop and start for real (T2: outages). The shared servers on 5432 and 6379 are
 * never touched: other test files use them.
 */

/** A free loopback port (asked of the kernel, then released for the server to take). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The newest installed PostgreSQL's binaries (Debian's layout), or whatever is on PATH. */
function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  return version === undefined ? name : join(root, version, 'bin', name);
}

/** initdb and postgres refuse to run as root: then they run as the `postgres` user. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

function run(bin: string, args: string[], user: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the server's URL for `openTestDatabase`. */
  url: string;
  /** Stops the server as an operator's restart does (`pg_ctl stop -m fast`: sessions ended). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

/** initdb into a temp folder, then `pg_ctl start` on a free port (trust auth, loopback only). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'summon-pg-'));
  const user = runAs();
  if (user !== null) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  await run(postgresBin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'], user);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const pgCtl = (...args: string[]) => run(postgresBin('pg_ctl'), ['-D', data, ...args], user);
  const start = () => pgCtl('-o', options, '-l', join(dir, 'server.log'), '-w', 'start');
  let running = false;
  await start();
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pgCtl('-m', 'fast', '-w', 'stop');
      running = false;
    },
    start: async () => {
      await start();
      running = true;
    },
    remove: async () => {
      if (running) await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      running = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  /** Stops the server; it keeps nothing (`--save ""`, no AOF), as CI's and many deployments' Redis. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** `redis-server` on a free loopback port, in the foreground, killed by `stop`. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      server.on('exit', (code) => reject(new Error(`redis-server exited ${code}: ${output}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      const server = child;
      child = null;
      if (server === null || server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.on('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    },
    start,
  };
}
