import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Cleanup } from '../core/cleanup';

const ROOT = path.join(__dirname, '../..');

/** A process under test: its pid (for its CPU in `/proc`) and the port it serves. */
export interface ServedChild {
  pid: number;
  port: number;
}

/** A port free on loopback now (the child binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * `node --import tsx <script> …args` (a `.js` script, compiled: `node <script> …args`) from the
 * repository's root with exactly `env` (and PATH),
 * under `--cpu-prof` when `SUMMON_BENCH_CPU_PROF` names a folder (a heap sampler for `SUMMON_BENCH_HEAP_PROF`),
 * its output to `logFile` (so this process spends nothing reading it), served once `readyPath`
 * on its port answers. Stopped with SIGTERM (SIGKILL after 10 s) by `cleanup`.
 */
export async function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
  readyPath: string,
  cleanup: Cleanup,
): Promise<ServedChild> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  // SUMMON_BENCH_CPU_PROF=<dir>: each child writes a V8 CPU profile there when it exits.
  const profileDir = process.env.SUMMON_BENCH_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const preloads = preloadsOn().flatMap(([, file]) => ['--import', path.join(__dirname, file)]);
  // tsx only for TypeScript (the preloads are TypeScript too).
  const tsx = script.endsWith('.ts') || preloads.length > 0 ? ['--import', 'tsx'] : [];
  const child = spawn(
    process.execPath,
    [...nodeFlags(), ...profile, ...tsx, ...preloads, path.join(ROOT, script), ...args],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...env,
        PORT: String(port),
        ...diagnosticEnv(),
      },
      stdio: ['ignore', log, log],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanup.defer(`stop ${script}`, () => stop(child, exited));
  if (child.pid === undefined) throw new Error(`${script} did not start`);
  await untilServing(`http://127.0.0.1:${port}${readyPath}`, child, logFile);
  return { pid: child.pid, port };
}

/**
 * A diagnostic: `SUMMON_BENCH_NODE_OPTIONS='<flags>'`, more of node's flags for every child (the
 * bare and floor bots too): `--trace-gc-nvp`, `--v8-pool-size=1`, V8's flags.
 */
function nodeFlags(): string[] {
  return (process.env.SUMMON_BENCH_NODE_OPTIONS ?? '').split(/\s+/).filter((flag) => flag !== '');
}

/**
 * Diagnostics preloaded into every child when their variable names a folder, each writing there:
 * a V8 heap sampling profile (`SUMMON_BENCH_HEAP_PROF_OLD=1` too: what outlived the young
 * generation), the garbage collections, the spread-first literals run.
 */
const PRELOADS = [
  ['SUMMON_BENCH_HEAP_PROF', 'heap-sampler.ts'],
  ['SUMMON_BENCH_GC_LOG', 'gc-log.ts'],
  ['SUMMON_BENCH_SPREAD_SITES', 'spread-sites.ts'],
] as const;

const preloadsOn = () => PRELOADS.filter(([variable]) => process.env[variable]);

/** The settings the child's preloads read, their folders made absolute. */
function diagnosticEnv(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [variable] of preloadsOn()) settings[variable] = path.resolve(process.env[variable] ?? '');
  const old = process.env.SUMMON_BENCH_HEAP_PROF_OLD;
  if (settings.SUMMON_BENCH_HEAP_PROF !== undefined && old !== undefined)
    settings.SUMMON_BENCH_HEAP_PROF_OLD = old;
  return settings;
}

async function untilServing(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}); see ${logFile}`);
    const answered = await fetch(url).then(
      (r) => r.status < 500,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer in 120 s; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
