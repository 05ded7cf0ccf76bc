import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RunEgressProxies } from '../../src/adapters/egress-proxy/run-egress-proxies';
import { createProcessLauncher } from '../../src/adapters/sandbox/create-process-launcher';
import { findProgram } from '../../src/adapters/sandbox/find-program';
import type { ProcessLauncher } from '../../src/adapters/sandbox/process-launcher';
import { bashTools } from '../../src/adapters/tools/bash-tool';
import { NO_DOMAINS_SENTENCE } from '../../src/core/network/host-verdict';
import { silentLogger } from '../../src/core/ports/logger';
import { agentEnvironment } from '../../src/core/tools/agent-environment';
import type { AnyToolDefinition, ToolScope } from '../../src/core/tools/tool-definition';

interface Setup {
  name: string;
  /** One call; resolves when it has ended (and, for the bash tool, is cleaned up). */
  call: () => Promise<void>;
}

/**
 * `npm run bench -- sandbox [calls]` (or `npm run bench:sandbox -- [calls]`): the sandbox's cost
 * per `bash` call. The same trivial command (`true`) through the real bash tool, unconfined
 * (SUMMON_SANDBOX=off, the baseline) and sandboxed (no forward: the common case; the run's
 * network decided "reaches no host"; the git gateway's forward; the egress proxy's forward),
 * with bare bubblewrap as the floor, interleaved call by call in the same run after a warm-up.
 * p50/p90 per set-up, the milliseconds added at p50 and the ratio to the baseline. Goal: ≤ 30 ms
 * added at p50 for the sandboxed call.
 */
export async function runSandboxBench(calls: number, print: (line: string) => void): Promise<void> {
  const bwrap = findProgram('bwrap');
  if (bwrap === undefined) throw new Error('bubblewrap (bwrap) is not installed');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'summon-bench-sandbox-'));
  // A fixed PATH and HOME: the same bash for every set-up (on the development machine a
  // host HOME of /root made every unconfined bash start take ~0.6 s).
  const env = agentEnvironment({ ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir });
  const proxies = new RunEgressProxies({ logger: silentLogger, forbiddenPorts: [] });
  const tool = (launcher: ProcessLauncher) => (bashTools({ env, launcher }) as [AnyToolDefinition])[0];
  const scope = (extra: Partial<ToolScope>): ToolScope => ({
    runId: 'bench',
    workspaceId: 'bench',
    agent: { name: 'engineer' } as ToolScope['agent'],
    space: { mode: 'chat' } as ToolScope['space'],
    workingDir: dir,
    skills: [],
    state: new Map(),
    ...extra,
  });
  const signal = new AbortController().signal;
  const viaBash = (name: string, launcher: ProcessLauncher, extra: Partial<ToolScope>): Setup => {
    const bash = tool(launcher);
    const callScope = scope(extra);
    return {
      name,
      call: async () => {
        const outcome = await bash.run({ command: 'true' }, callScope, signal);
        if (!outcome.ok) throw new Error(`${name}: ${outcome.output}`);
      },
    };
  };
  const sandboxed = createProcessLauncher({ mode: 'on' });
  const setups: Setup[] = [
    viaBash('unconfined (off)', createProcessLauncher({ mode: 'off' }), {}),
    { name: 'bare bwrap --ro-bind / / true', call: () => spawnToEnd(bwrap, ['--ro-bind', '/', '/', 'true']) },
    {
      name: 'bwrap --unshare-all, / ro, true',
      call: () => spawnToEnd(bwrap, ['--unshare-all', '--ro-bind', '/', '/', 'true']),
    },
    viaBash('sandboxed (no forward)', sandboxed, {}),
    viaBash('sandboxed, run reaches no host', sandboxed, {
      egress: proxies.forRun('bench-none', denyAll, async () => ({
        reachable: false,
        reason: NO_DOMAINS_SENTENCE,
      })),
    }),
    viaBash('sandboxed + gateway forward', sandboxed, {
      env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.http://127.0.0.1:39999/git/.extraHeader' },
    }),
    viaBash('sandboxed + egress forward', sandboxed, { egress: proxies.forRun('bench-proxy', denyAll) }),
  ];
  const times = setups.map(() => [] as number[]);
  try {
    for (let round = -10; round < calls; round++) {
      for (const [i, setup] of setups.entries()) {
        const started = process.hrtime.bigint();
        await setup.call();
        if (round >= 0) times[i]?.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
  } finally {
    await proxies.closeAll();
    await rm(dir, { recursive: true, force: true });
  }
  const base = percentile(times[0] ?? [], 50);
  print(
    `bash \`true\`, ${calls} calls per set-up (interleaved, after 10 warm-up rounds), load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}, ${os.availableParallelism()} CPUs`,
  );
  print('set-up                            p50 ms   p90 ms   added at p50   ratio');
  for (const [i, setup] of setups.entries()) {
    const p50 = percentile(times[i] ?? [], 50);
    const p90 = percentile(times[i] ?? [], 90);
    print(
      `${setup.name.padEnd(32)} ${p50.toFixed(1).padStart(7)}  ${p90.toFixed(1).padStart(7)}  ${(p50 - base).toFixed(1).padStart(10)} ms  ${(p50 / base).toFixed(2).padStart(5)}×`,
    );
  }
}

/** The egress decision is never reached in the bench (`true` connects nowhere). */
const denyAll = async () => ({ allowed: false as const, reason: 'bench' });

function spawnToEnd(file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} ${args.join(' ')}: ${code} ${stderr}`)),
    );
  });
}

/** Nearest-rank percentile. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** `calls` from the command line (default 200). */
export function parseCalls(arg: string | undefined): number {
  const calls = Number(arg ?? 200);
  return Number.isInteger(calls) && calls > 0 ? calls : 200;
}

if (require.main === module) {
  runSandboxBench(parseCalls(process.argv[2]), (line) => console.log(line)).catch((error: unknown) => {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
