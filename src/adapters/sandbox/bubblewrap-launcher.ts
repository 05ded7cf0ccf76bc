import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bwrapArguments, type Mount } from './bwrap-arguments';
import { type CallCgroup, CallCgroups } from './call-cgroups';
import { watchCall } from './call-lifetime';
import type { FairSemaphore } from './fair-semaphore';
import { type LoopbackRelay, openLoopbackRelay } from './loopback-relay';
import type { LaunchedProcess, LauncherStatus, ProcessLauncher } from './process-launcher';
import { RunProcessSlots } from './run-process-slots';
import { DEFAULT_LIMITS, type SandboxPolicy } from './sandbox-policy';
import { innerArgv, launchArgv } from './sandbox-prelude';
import { type ProbeResult, probeSandbox } from './sandbox-probe';
import { prepareSandboxState, SANDBOX_HOME, SANDBOX_HOSTS, SANDBOX_USER, sandboxIds } from './sandbox-state';
import { SandboxUnavailableError } from './sandbox-unavailable-error';
import { readSystemLayout, type SystemLayout } from './system-layout';

/**
 * X1–X4 on Linux: each call in its own bubblewrap sandbox (sandbox-policy.ts says what it sees),
 * in its own cgroup when the host gives Summon one (pids, memory), with rlimits otherwise, and
 * with its forwards relayed over unix sockets. The sandbox is probed once; when it cannot start,
 * every launch is refused with the probe's sentence (fail closed).
 */
export class BubblewrapLauncher implements ProcessLauncher {
  private readonly layout: SystemLayout = readSystemLayout();
  private readonly state = prepareSandboxState(undefined, this.layout.etc);
  private readonly cgroups = CallCgroups.detect();
  private probe: Promise<ProbeResult> | undefined;
  readonly slots: RunProcessSlots;

  /** `programs`: where bubblewrap and socat are (default: found on PATH). */
  constructor(
    semaphore: FairSemaphore,
    private readonly programs: { bwrap?: string; socat?: string } = {},
  ) {
    this.slots = new RunProcessSlots(semaphore);
  }

  async status(): Promise<LauncherStatus> {
    this.probe ??= probeSandbox(this.layout, this.state.etc, this.programs);
    const probe = await this.probe;
    const controls = this.cgroups?.controls;
    const enforced = [
      'files: only the working folder, its linked folders and the system (read-only)',
      'network: only the forwarded loopback ports',
      `processes: ${controls?.processes ? `cgroup ${controls.version} pids.max` : 'RLIMIT_NPROC (ulimit -u)'}`,
      `memory: ${controls?.memory ? `cgroup ${controls.version} memory limit` : 'RLIMIT_DATA per process (ulimit -d)'}`,
      'file size: RLIMIT_FSIZE per file (ulimit -f); /tmp and home: size-limited tmpfs',
    ];
    const warnings: string[] = [];
    if (!controls?.processes && process.getuid?.() === 0)
      warnings.push(
        'The process limit of agents’ commands cannot be enforced: Summon runs as root and has no writable cgroup (pids), and RLIMIT_NPROC does not apply to root. Give Summon a cgroup (v1 pids hierarchy or a delegated cgroup v2 subtree with pids enabled) or run it as another user.',
      );
    if (!probe.ok) return { mode: 'unavailable', problem: probe.problem, enforced: [], warnings };
    return { mode: 'bubblewrap', enforced, warnings };
  }

  async launch(
    policy: SandboxPolicy,
    argv: readonly [string, ...string[]],
    signal?: AbortSignal,
  ): Promise<LaunchedProcess> {
    this.probe ??= probeSandbox(this.layout, this.state.etc, this.programs);
    const probe = await this.probe;
    if (!probe.ok) throw new SandboxUnavailableError(probe.problem); // X4: fail closed
    const release = await this.slots.hold(policy.runId, signal);
    const limits = { ...DEFAULT_LIMITS, ...policy.limits };
    let callDir: string | undefined;
    let cgroup: CallCgroup | undefined;
    let made: Promise<CallCgroup> | undefined;
    let hostsFile: string | undefined;
    const relays: LoopbackRelay[] = [];
    const cleanUp = async () => {
      await cgroup?.killAll();
      await cgroup?.remove();
      for (const relay of relays) await relay.close().catch(() => undefined);
      if (callDir !== undefined) await rm(callDir, { recursive: true, force: true });
      release();
    };
    try {
      // The call's cgroup and its forwards' relays are made at the same time.
      made = this.cgroups?.create({ processes: limits.processes, memoryBytes: limits.memoryBytes });
      made?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      if (policy.forwards.length > 0) {
        const dir = await mkdtemp(path.join(this.state.calls, 'call-'));
        callDir = dir;
        await Promise.all(
          policy.forwards.map(async (forward) => {
            relays.push(await openLoopbackRelay(path.join(dir, `${forward.port}.sock`), forward.target));
          }),
        );
        const names = policy.forwards.flatMap((forward) => forward.names ?? []);
        if (names.length > 0) {
          hostsFile = path.join(dir, 'hosts');
          await writeFile(hostsFile, `${SANDBOX_HOSTS}127.0.0.1 ${names.join(' ')}\n`, { mode: 0o644 });
        }
      }
      cgroup = await made;
      const controls = this.cgroups?.controls;
      const { uid, gid } = sandboxIds();
      const bwrapArgs = bwrapArguments({
        layout: this.layout,
        etcDir: this.state.etc,
        forwardsDir: callDir,
        hostsFile,
        workingDir: policy.startDir ?? policy.workingDir,
        writable: mounts([policy.workingDir, ...policy.writablePaths]),
        readOnly: mounts(policy.readOnlyPaths),
        uid,
        gid,
        tmpBytes: limits.tmpBytes,
      });
      // X3: rlimits only where no cgroup counts the call as a whole; set (and the cgroups joined)
      // by the launching shell, so bubblewrap and everything in the sandbox inherit them.
      const command = launchArgv(
        {
          fileSizeBytes: limits.fileSizeBytes,
          dataBytes: controls?.memory ? undefined : limits.memoryBytes,
          processes: controls?.processes ? undefined : limits.processes,
        },
        cgroup?.procFiles ?? [],
        [
          probe.bwrap,
          ...bwrapArgs,
          '--',
          ...innerArgv(
            probe.socat,
            policy.forwards.map((forward) => forward.port),
            argv,
          ),
        ],
      );
      const [file, ...args] = command as [string, ...string[]];
      // The sandbox's environment is the only one its processes (bubblewrap's pid 1 included) have.
      const child = spawn(file, args, {
        cwd: '/',
        env: {
          ...policy.env,
          HOME: SANDBOX_HOME,
          TMPDIR: '/tmp',
          USER: SANDBOX_USER,
          LOGNAME: SANDBOX_USER,
        },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      return watchCall(child, { wallTimeMs: policy.limits.wallTimeMs, cleanUp });
    } catch (error) {
      cgroup ??= await made?.catch(() => undefined);
      await cleanUp();
      throw error;
    }
  }
}

/** Each existing path at its resolved place (and at the given one when that differs), for binds. */
function mounts(paths: readonly string[]): Mount[] {
  const out: Mount[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    if (!existsSync(given)) continue;
    const real = realpathSync(given);
    for (const at of new Set([real, path.resolve(given)])) {
      if (seen.has(at)) continue;
      seen.add(at);
      out.push({ real, at });
    }
  }
  return out;
}
