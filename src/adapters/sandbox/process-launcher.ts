import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { SandboxPolicy } from './sandbox-policy';

/** How one call ended. `stopped` says why Summon ended it, when it did. */
export interface LaunchExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stopped: 'timeout' | 'ended' | undefined;
}

/** A running confined call. */
export interface LaunchedProcess {
  /** The process Summon talks to (stdin, stdout, stderr are pipes). */
  readonly child: ChildProcessWithoutNullStreams;
  /**
   * X3: ends every process of the call (SIGTERM, then SIGKILL after `graceMs`) and resolves once
   * none is left and the call's cgroup, forwards and private files are gone.
   */
  end(graceMs: number): Promise<void>;
  /** Resolves when the call has exited and is cleaned up (every process of it gone). */
  readonly done: Promise<LaunchExit>;
}

/** What the launcher found at start (X4), for the start-up log and status output. */
export interface LauncherStatus {
  mode: 'bubblewrap' | 'off' | 'unavailable';
  /** Why it is unavailable, as a sentence that says how to fix it (X4). */
  problem?: string;
  /** What is enforced, for the log (e.g. "processes: cgroup v1 pids.max"). */
  enforced: string[];
  /** Limits that cannot be enforced in this set-up, as sentences. */
  warnings: string[];
}

/**
 * X1–X4: starts the processes of agents (`bash` calls, CLI agents). The bubblewrap launcher
 * confines them by a `SandboxPolicy`; `SUMMON_SANDBOX=off` gives an unconfined one. Every launch
 * waits for a slot of the process concurrency bound (T3) first.
 */
export interface ProcessLauncher {
  /** Probes once (cached) whether the sandbox works. */
  status(): Promise<LauncherStatus>;
  /**
   * Starts `argv` under `policy`. Rejects with a `SandboxUnavailableError` (fail closed, X4) when
   * the sandbox cannot start, or with the signal's reason when aborted while waiting for a slot.
   */
  launch(
    policy: SandboxPolicy,
    argv: readonly [string, ...string[]],
    signal?: AbortSignal,
  ): Promise<LaunchedProcess>;
}
