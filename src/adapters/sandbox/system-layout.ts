import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** One top-level system path as it is on the host: a directory to bind read-only, or a symlink. */
export type SystemEntry = { path: string; kind: 'dir' } | { path: string; kind: 'symlink'; target: string };

/** X1: the read-only system a confined call sees (the rest of `/` is not there). */
export interface SystemLayout {
  entries: readonly SystemEntry[];
  /** The few files of `/etc` the tools need (dynamic linker cache, alternatives, certificates). */
  etc: readonly string[];
}

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/**
 * Not `/etc/passwd`, `/etc/shadow`, `/etc/gitconfig` or `/etc/hosts` of the host: the sandbox
 * gets its own passwd, group and hosts (sandbox-state.ts).
 */
const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'localtime',
  'timezone',
  'nsswitch.conf',
  'protocols',
  'services',
  'mime.types',
  'os-release',
  'debian_version',
  'terminfo',
];

/** Reads the host's layout once (merged `/usr` on Debian: `/bin` is a symlink to `usr/bin`). */
export function readSystemLayout(): SystemLayout {
  const entries: SystemEntry[] = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatOrNull(dir);
    if (stat === null) continue;
    if (stat.isSymbolicLink()) entries.push({ path: dir, kind: 'symlink', target: readlinkSync(dir) });
    else if (stat.isDirectory()) entries.push({ path: dir, kind: 'dir' });
  }
  const etc = ETC_ENTRIES.map((name) => path.join('/etc', name)).filter((file) => existsSync(file));
  return { entries, etc };
}

/** True when `file` (after symlinks) lies inside the read-only system, so it needs no mount of its own. */
export function insideSystem(layout: SystemLayout, file: string): boolean {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return false;
  }
  return layout.entries.some(
    (entry) => entry.kind === 'dir' && (real === entry.path || real.startsWith(`${entry.path}/`)),
  );
}

function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}
