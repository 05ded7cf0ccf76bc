import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeAtExit } from './exit-cleanup';

/** One call's cgroup directories (one per v1 hierarchy, or one v2 directory). */
export interface CallCgroup {
  /** Where the launching shell writes its pid (`cgroup.procs`) before it execs bubblewrap. */
  readonly procFiles: readonly string[];
  /** SIGKILL to every process still in the call's cgroup, until none is left (bounded). */
  killAll(): Promise<void>;
  /** Removes the call's cgroup directories (after `killAll`). */
  remove(): Promise<void>;
}

interface Hierarchy {
  controller: 'pids' | 'memory' | 'v2';
  /** This server's directory for its calls, created at detection. */
  dir: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * X3: per-call cgroups, when the host gives Summon a writable cgroup: the cgroup v1 `pids` and
 * `memory` hierarchies (a child of Summon's own cgroup in each), or a cgroup v2 directory of
 * Summon's own whose `cgroup.subtree_control` has `pids` (and `memory`) enabled (a delegated
 * subtree). `detect` answers null when neither is writable: then the launcher falls back to
 * per-process rlimits.
 */
export class CallCgroups {
  private next = 0;

  private constructor(private readonly hierarchies: readonly Hierarchy[]) {}

  /** What is enforced through cgroups: 'pids' and/or 'memory', and which version. */
  get controls(): { processes: boolean; memory: boolean; version: 'v1' | 'v2' } {
    const v2 = this.hierarchies.some((h) => h.controller === 'v2');
    return {
      processes: v2 || this.hierarchies.some((h) => h.controller === 'pids'),
      memory: this.hierarchies.some((h) => h.controller === 'memory' || h.controller === 'v2'),
      version: v2 ? 'v2' : 'v1',
    };
  }

  static detect(root = '/sys/fs/cgroup', pid = process.pid): CallCgroups | null {
    const own = ownCgroups();
    const v1: Hierarchy[] = [];
    for (const controller of ['pids', 'memory'] as const) {
      const limitFile = controller === 'pids' ? 'pids.max' : 'memory.limit_in_bytes';
      const dir = prepare(path.join(root, controller), own.get(controller), `summon-${pid}`, {
        probe: (child) =>
          writeFileSync(path.join(child, limitFile), controller === 'pids' ? '64' : String(1024 ** 3)),
      });
      if (dir !== null) v1.push({ controller, dir });
    }
    if (v1.some((h) => h.controller === 'pids')) return new CallCgroups(v1);
    for (const mount of [root, path.join(root, 'unified')]) {
      if (!existsSync(path.join(mount, 'cgroup.controllers'))) continue;
      const base = path.join(mount, own.get('') ?? '/');
      const enabled = readText(path.join(base, 'cgroup.subtree_control')).split(/\s+/);
      if (!enabled.includes('pids')) continue;
      const dir = prepare(mount, own.get(''), `summon-${pid}`, {
        setup: (made) =>
          writeFileSync(
            path.join(made, 'cgroup.subtree_control'),
            `+pids${enabled.includes('memory') ? ' +memory' : ''}`,
          ),
        probe: (child) => writeFileSync(path.join(child, 'pids.max'), '64'),
      });
      if (dir !== null) return new CallCgroups([{ controller: 'v2', dir }]);
    }
    return v1.length > 0 ? new CallCgroups(v1) : null;
  }

  /** A fresh cgroup for one call with its limits written. */
  async create(limits: { processes: number; memoryBytes: number }): Promise<CallCgroup> {
    const dirs = this.makeDirs();
    try {
      for (const [index, h] of this.hierarchies.entries()) {
        const dir = dirs[index] as string;
        if (h.controller === 'pids') await writeFile(path.join(dir, 'pids.max'), String(limits.processes));
        if (h.controller === 'memory') {
          await writeFile(path.join(dir, 'memory.limit_in_bytes'), String(limits.memoryBytes));
          // Swap counts too where the kernel accounts it (memsw), so a limit cannot be dodged by swapping.
          await writeFile(path.join(dir, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)).catch(
            () => undefined,
          );
        }
        if (h.controller === 'v2') {
          await writeFile(path.join(dir, 'pids.max'), String(limits.processes));
          await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes)).catch(() => undefined);
        }
      }
    } catch (error) {
      for (const dir of dirs) await rmdir(dir).catch(() => undefined);
      throw error;
    }
    return {
      procFiles: dirs.map((dir) => path.join(dir, 'cgroup.procs')),
      killAll: () => killAll(dirs),
      remove: async () => {
        for (const dir of dirs) await removeWhenEmpty(dir);
      },
    };
  }

  /**
   * X3: a call's directory in each hierarchy, under a name free in all of them: another
   * launcher of this process (the MCP client's, the runs') counts its calls in the same
   * `summon-<pid>` folder, so a name already taken is skipped, not an error.
   */
  private makeDirs(): string[] {
    for (;;) {
      this.next += 1;
      const dirs: string[] = [];
      try {
        for (const h of this.hierarchies) {
          const dir = path.join(h.dir, `call-${this.next}`);
          mkdirSync(dir);
          dirs.push(dir);
        }
        return dirs;
      } catch (error) {
        for (const dir of dirs) rmdirSync(dir);
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}

/** This process's cgroup path per v1 controller ('' for the v2 hierarchy), from /proc/self/cgroup. */
function ownCgroups(): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of readText('/proc/self/cgroup').split('\n')) {
    const [, controllers, where] = line.split(':');
    if (controllers === undefined || where === undefined) continue;
    for (const controller of controllers.split(',')) map.set(controller, where);
  }
  return map;
}

/** `<mount>/<own>/<name>` made (or `<mount>/<name>` when our own path is not visible), probed with a child. */
function prepare(
  mount: string,
  own: string | undefined,
  name: string,
  steps: { setup?: (dir: string) => void; probe: (child: string) => void },
): string | null {
  if (!existsSync(path.join(mount, 'cgroup.procs'))) return null;
  const ownDir = own !== undefined && existsSync(path.join(mount, own)) ? path.join(mount, own) : mount;
  const dir = path.join(ownDir, name);
  const probeDir = path.join(dir, 'probe');
  try {
    mkdirSync(dir, { recursive: true });
    steps.setup?.(dir);
    mkdirSync(probeDir, { recursive: true });
    steps.probe(probeDir);
    rmdirSync(probeDir);
    removeAtExit({ cgroupDir: dir });
    return dir;
  } catch {
    try {
      rmdirSync(probeDir);
    } catch {}
    return null;
  }
}

async function killAll(dirs: readonly string[]): Promise<void> {
  for (let round = 0; round < 100; round++) {
    let left = 0;
    for (const dir of dirs) {
      if (existsSync(path.join(dir, 'cgroup.kill')))
        await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => undefined);
      for (const pid of (await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '')).split(
        '\n',
      )) {
        if (pid === '') continue;
        left += 1;
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone already
        }
      }
    }
    if (left === 0) return;
    // Processes just killed leave the list within a few ms: look again soon, then less often.
    await sleep(Math.min(10, 2 ** round));
  }
}

async function removeWhenEmpty(dir: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await sleep(10); // EBUSY: a process just killed is still being torn down
    }
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
