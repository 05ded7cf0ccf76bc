import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface GroupSpawn {
  argv: readonly [string, ...string[]];
  cwd: string;
  env: Record<string, string>;
}

/**
 * Starts a process as the leader of its own process group (`detached` = setsid on POSIX), so
 * that the process and everything it starts can be signalled together.
 */
export function spawnInGroup(options: GroupSpawn): ChildProcessWithoutNullStreams {
  const [file, ...args] = options.argv;
  return spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** True while a process exists and is not a zombie (an exited child not yet reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name: `pid (comm) S …`.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** The live members of a process group (Linux `/proc`; elsewhere only whether any signal lands). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .some((entry) => {
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          // fields[0] is the state, fields[2] the process group id.
          return Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X';
        } catch {
          return false;
        }
      });
  } catch {
    return true;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ends a whole process group: SIGTERM, then SIGKILL for whatever is still alive after the grace
 * period. Resolves once no member of the group is left (or, after SIGKILL, a short while later).
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
  }
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(25);
}
