import { accessSync, constants, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeAtExit } from './exit-cleanup';

/** Inside the sandbox: the private home and where the forwards' sockets appear. */
export const SANDBOX_HOME = '/sandbox/home';
export const SANDBOX_FORWARDS = '/sandbox/forwards';
export const SANDBOX_USER = 'agent';
/** The sandbox's /etc/hosts (a call with forwarded host names gets these lines and its own). */
export const SANDBOX_HOSTS = '127.0.0.1 localhost\n::1 localhost ip6-localhost\n';

/** The uid and gid a confined call runs as: the host's own, or 1000 when Summon runs as root. */
export function sandboxIds(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? 1000;
  const gid = process.getgid?.() ?? 1000;
  return { uid: uid === 0 ? 1000 : uid, gid: gid === 0 ? 1000 : gid };
}

export interface SandboxState {
  root: string;
  /** The sandbox's whole /etc, bound read-only in one mount. */
  etc: string;
  calls: string;
}

const prepared = new Map<string, SandboxState>();

/**
 * X1: the sandbox's `/etc`, made once per process under `<tmp>/summon-sandbox-<pid>`: a copy of
 * the few host entries the tools need (`etcEntries`, symlinks kept as they are; never
 * `/etc/ssl/private`, nor anything Summon cannot read), and Summon's own `passwd`, `group` and
 * `hosts`. One bind of this folder instead of one per file: each mount is a cost of every call's
 * start. (A change to the host's /etc after Summon started is seen after its restart.) Also a
 * folder for each call's forward sockets. Content only depends on the host and the ids, so
 * launchers of one process share it.
 */
export function prepareSandboxState(tmpDir = os.tmpdir(), etcEntries: readonly string[] = []): SandboxState {
  const root = path.join(tmpDir, `summon-sandbox-${process.pid}`);
  const known = prepared.get(root);
  if (known !== undefined) return known;
  const etc = path.join(root, 'etc');
  const calls = path.join(root, 'calls');
  mkdirSync(etc, { recursive: true, mode: 0o755 });
  mkdirSync(calls, { recursive: true, mode: 0o700 });
  removeAtExit({ folder: root });
  for (const entry of etcEntries) {
    try {
      cpSync(entry, path.join(etc, path.basename(entry)), {
        recursive: true,
        verbatimSymlinks: true,
        force: true,
        filter: (source) => source !== '/etc/ssl/private' && readable(source),
      });
    } catch {
      // unreadable or gone: the sandbox does without it
    }
  }
  const { uid, gid } = sandboxIds();
  writeFileSync(
    path.join(etc, 'passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\n${SANDBOX_USER}:x:${uid}:${gid}:Summon agent:${SANDBOX_HOME}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  );
  writeFileSync(path.join(etc, 'group'), `root:x:0:\n${SANDBOX_USER}:x:${gid}:\nnogroup:x:65534:\n`);
  writeFileSync(path.join(etc, 'hosts'), SANDBOX_HOSTS);
  const state = { root, etc, calls };
  prepared.set(root, state);
  return state;
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
