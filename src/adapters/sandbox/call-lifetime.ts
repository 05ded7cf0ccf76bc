import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { LaunchExit, LaunchedProcess } from './process-launcher';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

/**
 * X3: the lifetime of one launched call, the same for every launcher: the wall-time limit, `end`
 * (SIGTERM to the call's process group, SIGKILL after the grace period), `afterExit` once the
 * main process has exited (the unconfined launcher ends the rest of its group there; a sandbox
 * ends with its pid namespace anyway), then `cleanUp` before `done` resolves.
 */
export function watchCall(
  child: ChildProcessWithoutNullStreams,
  options: {
    wallTimeMs: number | undefined;
    cleanUp: () => Promise<void>;
    afterExit?: (pgid: number) => Promise<void>;
  },
): LaunchedProcess {
  let stopped: LaunchExit['stopped'];
  let ending: Promise<void> | undefined;
  let resolveDone: (exit: LaunchExit) => void = () => undefined;
  const done = new Promise<LaunchExit>((resolve) => {
    resolveDone = resolve;
  });
  const end = (graceMs: number, why: 'timeout' | 'ended'): Promise<void> => {
    stopped ??= why;
    const pgid = child.pid;
    ending ??= (async () => {
      if (pgid !== undefined && signalGroup(pgid, 'SIGTERM')) {
        const deadline = Date.now() + graceMs;
        while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) await sleep(20);
        signalGroup(pgid, 'SIGKILL');
      }
    })();
    return ending.then(() => done.then(() => undefined));
  };
  const timer =
    options.wallTimeMs === undefined
      ? undefined
      : setTimeout(() => void end(2000, 'timeout'), options.wallTimeMs);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let finishing = false;
  const finish = async () => {
    if (finishing) return;
    finishing = true;
    clearTimeout(timer);
    await options.cleanUp().catch(() => undefined);
    resolveDone({ code: exit?.code ?? null, signal: exit?.signal ?? null, stopped });
  };
  child.on('exit', (code, signal) => {
    exit = { code, signal };
    if (options.afterExit !== undefined && child.pid !== undefined) void options.afterExit(child.pid);
  });
  child.on('close', (code, signal) => {
    exit ??= { code, signal };
    void finish();
  });
  child.on('error', () => {
    if (child.pid === undefined) void finish(); // never started: no 'close' may follow
  });
  return { child, end: (graceMs) => end(graceMs, 'ended'), done };
}
