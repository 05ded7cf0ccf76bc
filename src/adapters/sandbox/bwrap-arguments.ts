import { SANDBOX_FORWARDS, SANDBOX_HOME } from './sandbox-state';
import type { SystemLayout } from './system-layout';

/** One host path to mount at the same place: `real` is its resolved source, `at` where it is seen. */
export interface Mount {
  real: string;
  at: string;
}

export interface BwrapPlan {
  layout: SystemLayout;
  /** The sandbox's whole /etc (sandbox-state.ts: the host's few entries copied, its own passwd, group and hosts). */
  etcDir: string;
  /** The call's own /etc/hosts (forwarded host names), instead of `etcDir`'s. */
  hostsFile?: string | undefined;
  /** The call's folder of forward sockets (bound read-only at SANDBOX_FORWARDS). */
  forwardsDir: string | undefined;
  workingDir: string;
  writable: readonly Mount[];
  readOnly: readonly Mount[];
  uid: number;
  gid: number;
  tmpBytes: number;
}

/**
 * X1: the bubblewrap arguments of one call. Order matters (later mounts lie over earlier ones):
 * the system read-only, a minimal /etc (one mount), the call's own /proc and /dev, tmpfs /tmp and home,
 * then the writable paths, then the read-only ones (a skill inside a writable folder stays
 * read-only), then the forward sockets. Namespaces: all of them (user, pid, net, ipc, uts,
 * cgroup); no capabilities, no further user namespaces, a new session (no TIOCSTI into
 * Summon's terminal), and the whole sandbox dies with Summon.
 */
export function bwrapArguments(plan: BwrapPlan): string[] {
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(plan.uid),
    '--gid',
    String(plan.gid),
    '--hostname',
    'summon-sandbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
  ];
  for (const entry of plan.layout.entries) {
    if (entry.kind === 'dir') args.push('--ro-bind', entry.path, entry.path);
    else args.push('--symlink', entry.target, entry.path);
  }
  args.push('--ro-bind', plan.etcDir, '/etc');
  if (plan.hostsFile !== undefined) args.push('--ro-bind', plan.hostsFile, '/etc/hosts');
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(plan.tmpBytes), '--tmpfs', '/tmp');
  args.push('--size', String(plan.tmpBytes), '--tmpfs', SANDBOX_HOME);
  for (const mount of plan.writable) args.push('--bind', mount.real, mount.at);
  for (const mount of plan.readOnly) args.push('--ro-bind', mount.real, mount.at);
  if (plan.forwardsDir !== undefined) args.push('--ro-bind', plan.forwardsDir, SANDBOX_FORWARDS);
  args.push('--chdir', plan.workingDir);
  return args;
}
