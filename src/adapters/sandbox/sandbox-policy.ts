/** A TCP port on the sandbox's own loopback (127.0.0.1) that reaches an endpoint of the host. */
export interface SandboxForward {
  /** The port the confined process connects to on 127.0.0.1 inside the sandbox. */
  port: number;
  /** Where the connection lands on the host side (the git gateway, the hook channel, a proxy). */
  target: { host: string; port: number };
  /** Host names that resolve to the sandbox's 127.0.0.1 (a gateway reached by name, on another machine). */
  names?: readonly string[];
}

/** X3: limits of one call. Absent fields take the launcher's defaults (`DEFAULT_LIMITS`). */
export interface SandboxLimits {
  /** The call is ended (every process of it) after this long. */
  wallTimeMs?: number;
  /** Memory of all the call's processes together (cgroup), or per process (RLIMIT_DATA) without one. */
  memoryBytes?: number;
  /** Processes and threads of the call together (cgroup `pids.max`), or RLIMIT_NPROC without one. */
  processes?: number;
  /** The largest file one process may write (RLIMIT_FSIZE). */
  fileSizeBytes?: number;
  /** Size of the private `/tmp` (a tmpfs) and of the private home. */
  tmpBytes?: number;
}

/**
 * X1–X3: what one confined call may see and reach. Everything not named here is invisible:
 * the system (`/usr`, a minimal `/etc`) is read-only, `/tmp` and `HOME` are private and empty,
 * `/proc` shows the call's own processes only, and the network is the sandbox's own loopback
 * with the `forwards` as its only ways out.
 */
export interface SandboxPolicy {
  /** T1, T3: the run the call is of; its process slot is held for that run (`ProcessSlots`). */
  runId?: string;
  /** Visible and writable at the same path; where the command starts unless `startDir` says otherwise. */
  workingDir: string;
  /** E3: where the command starts instead (an MCP server's `cwd`, visible through `readOnlyPaths`). */
  startDir?: string;
  /** Visible and writable at the same path (M9: the space's checkouts, the agent's folder). */
  writablePaths: readonly string[];
  /** Visible read-only at the same path (skills the overlay links to, the agent's binary). */
  readOnlyPaths: readonly string[];
  /** X2: the only connections out of the sandbox. */
  forwards: readonly SandboxForward[];
  /**
   * The whole environment of the command (already without Summon's secrets, agent-environment.ts).
   * `HOME`, `TMPDIR`, `USER` and `LOGNAME` are replaced by the sandbox's private ones.
   */
  env: Readonly<Record<string, string>>;
  limits: SandboxLimits;
}

export const DEFAULT_LIMITS: Required<Omit<SandboxLimits, 'wallTimeMs'>> = {
  memoryBytes: 2 * 1024 ** 3,
  processes: 512,
  fileSizeBytes: 1024 ** 3,
  tmpBytes: 512 * 1024 ** 2,
};
