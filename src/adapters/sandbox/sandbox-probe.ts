import { spawn } from 'node:child_process';
import { bwrapArguments } from './bwrap-arguments';
import { findProgram } from './find-program';
import { sandboxIds } from './sandbox-state';
import type { SystemLayout } from './system-layout';

export type ProbeResult = { ok: true; bwrap: string; socat: string } | { ok: false; problem: string };

const OFF_HINT =
  'or set SUMMON_SANDBOX=off to run agents’ commands unconfined (not recommended: they then see the whole host).';
const CONTAINER_HINT =
  'Enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0); in a container, allow them (Docker: --security-opt seccomp=unconfined --security-opt apparmor=unconfined, or --cap-add SYS_ADMIN; Kubernetes: an unconfined seccomp/AppArmor profile)';

/**
 * X4: whether a sandbox can start here: bubblewrap and socat are installed, and bubblewrap can
 * create the namespaces with the same mounts a call gets, running socat inside. The answer is a
 * sentence that says how to fix what is missing.
 */
export async function probeSandbox(
  layout: SystemLayout,
  etcDir: string,
  programs: { bwrap?: string; socat?: string } = {},
): Promise<ProbeResult> {
  const bwrap = programs.bwrap ?? findProgram('bwrap');
  if (bwrap === undefined)
    return {
      ok: false,
      problem: `The sandbox cannot start: bubblewrap (bwrap) is not installed. Install it (Debian/Ubuntu: apt-get install bubblewrap socat), ${OFF_HINT}`,
    };
  const socat = programs.socat ?? findProgram('socat');
  if (socat === undefined)
    return {
      ok: false,
      problem: `The sandbox cannot start: socat (which carries the git gateway into the sandbox) is not installed. Install it (Debian/Ubuntu: apt-get install socat), ${OFF_HINT}`,
    };
  const { uid, gid } = sandboxIds();
  const args = bwrapArguments({
    layout,
    etcDir,
    forwardsDir: undefined,
    workingDir: '/',
    writable: [],
    readOnly: [],
    uid,
    gid,
    tmpBytes: 1024 * 1024,
  });
  const run = await runQuietly(bwrap, [...args, socat, '-V']);
  if (run.code === null)
    return {
      ok: false,
      problem: `The sandbox cannot start: bubblewrap could not be run (${run.stderr}). Install it (Debian/Ubuntu: apt-get install bubblewrap socat), ${OFF_HINT}`,
    };
  if (run.code === 0) return { ok: true, bwrap, socat };
  const detail =
    run.stderr
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .slice(-1)[0] ?? `exit code ${run.code}`;
  return {
    ok: false,
    problem: `The sandbox cannot start: bubblewrap failed (${detail}). ${CONTAINER_HINT}, ${OFF_HINT}`,
  };
}

function runQuietly(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => resolve({ code: null, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
