import { rmdirSync, rmSync } from 'node:fs';

/**
 * What the sandbox leaves per process (its state folder in the temp dir, its empty cgroup
 * directories, the hook script's folder), removed when the process exits. One listener per
 * process whatever the number of launchers; the folders are per process (named by pid), so a
 * registry of them is per process too.
 */
const folders = new Set<string>();
const cgroupDirs = new Set<string>();

function removeAll(): void {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  for (const dir of cgroupDirs) {
    try {
      rmdirSync(dir);
    } catch {
      // a call still running (or already gone): the host removes empty cgroups at reboot
    }
  }
}

export function removeAtExit(entry: { folder?: string; cgroupDir?: string }): void {
  if (entry.folder !== undefined) folders.add(entry.folder);
  if (entry.cgroupDir !== undefined) cgroupDirs.add(entry.cgroupDir);
  if (!process.listeners('exit').includes(removeAll)) process.on('exit', removeAll);
}
