import { mkdirSync, writeFileSync } from 'node:fs';
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

/**
 * The files a sandbox is given instead of the host's (`/etc/passwd`, `/etc/group`, `/etc/hosts`),
 * and a folder for each call's forward sockets, under `<tmp>/summon-sandbox-<pid>`. Content only
 * depends on the ids, so launchers of one process share it.
 */
export function prepareSandboxState(tmpDir = os.tmpdir()): { root: string; etc: string; calls: string } {
  const root = path.join(tmpDir, `summon-sandbox-${process.pid}`);
  const etc = path.join(root, 'etc');
  const calls = path.join(root, 'calls');
  mkdirSync(etc, { recursive: true, mode: 0o755 });
  mkdirSync(calls, { recursive: true, mode: 0o700 });
  removeAtExit({ folder: root });
  const { uid, gid } = sandboxIds();
  writeFileSync(
    path.join(etc, 'passwd'),
    `root:x:0:0:root:/root:/usr/sbin/nologin\n${SANDBOX_USER}:x:${uid}:${gid}:Summon agent:${SANDBOX_HOME}:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  );
  writeFileSync(path.join(etc, 'group'), `root:x:0:\n${SANDBOX_USER}:x:${gid}:\nnogroup:x:65534:\n`);
  writeFileSync(path.join(etc, 'hosts'), SANDBOX_HOSTS);
  return { root, etc, calls };
}
