import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createProcessLauncher } from '../../src/adapters/sandbox/create-process-launcher';
import type { ProcessLauncher } from '../../src/adapters/sandbox/process-launcher';
import { bashTools } from '../../src/adapters/tools/bash-tool';
import { agentEnvironment } from '../../src/core/tools/agent-environment';
import type { AnyToolDefinition, ToolScope } from '../../src/core/tools/tool-definition';

/**
 * `npx tsx bench/sandbox/sandbox-bench.ts [calls]`: the sandbox's cost per `bash` call. The same
 * trivial command (`true`) through the real bash tool, unconfined (SUMMON_SANDBOX=off) and
 * sandboxed (with and without a forwarded gateway port), interleaved in the same run after a
 * warm-up; p50/p95 per set-up and the milliseconds the sandbox adds at p50. Goal: ≤ 30 ms.
 */
async function main(calls: number): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'summon-bench-sandbox-'));
  // A fixed PATH and HOME: the same bash for every set-up (on the development machine a
  // host HOME of /root made every unconfined bash start take ~0.6 s).
  const env = agentEnvironment({ ...process.env, PATH: '/usr/local/bin:/usr/bin:/bin', HOME: dir });
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
  const gatewayEnv = {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.http://127.0.0.1:39999/git/.extraHeader',
  };
  const setups = [
    { name: 'unconfined (off)', bash: tool(createProcessLauncher({ mode: 'off' })), scope: scope({}) },
    { name: 'sandboxed', bash: tool(createProcessLauncher({ mode: 'on' })), scope: scope({}) },
    {
      name: 'sandboxed + gateway forward',
      bash: tool(createProcessLauncher({ mode: 'on' })),
      scope: scope({ env: gatewayEnv }),
    },
  ];
  const times = setups.map(() => [] as number[]);
  const signal = new AbortController().signal;
  try {
    for (let round = -10; round < calls; round++) {
      for (const [i, setup] of setups.entries()) {
        const started = process.hrtime.bigint();
        const outcome = await setup.bash.run({ command: 'true' }, setup.scope, signal);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (!outcome.ok) throw new Error(`${setup.name}: ${outcome.output}`);
        if (round >= 0) times[i]?.push(ms);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  };
  const base = pct(times[0] ?? [], 50);
  console.log(`bash \`true\`, ${calls} calls per set-up (interleaved, after 10 warm-up rounds)`);
  console.log('set-up                        p50 ms   p95 ms   added at p50');
  for (const [i, setup] of setups.entries()) {
    const p50 = pct(times[i] ?? [], 50);
    const p95 = pct(times[i] ?? [], 95);
    console.log(
      `${setup.name.padEnd(28)} ${p50.toFixed(1).padStart(7)}  ${p95.toFixed(1).padStart(7)}  ${(p50 - base).toFixed(1).padStart(8)} ms`,
    );
  }
}

const calls = Number(process.argv[2] ?? 200);
main(Number.isInteger(calls) && calls > 0 ? calls : 200).catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
