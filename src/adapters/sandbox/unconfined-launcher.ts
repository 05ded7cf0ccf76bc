import { spawn } from 'node:child_process';
import { terminateGroup } from '../runners/command/process-group';
import { watchCall } from './call-lifetime';
import type { FairSemaphore } from './fair-semaphore';
import type { LaunchedProcess, LauncherStatus, ProcessLauncher } from './process-launcher';
import { RunProcessSlots } from './run-process-slots';
import type { SandboxPolicy } from './sandbox-policy';

export const SANDBOX_OFF_WARNING =
  'SUMMON_SANDBOX=off: agents’ bash commands and CLI agents run unconfined, as Summon’s own user, with the whole file system and network of this host (X4). Remove SUMMON_SANDBOX=off to confine them.';

/**
 * X4: `SUMMON_SANDBOX=off`, chosen explicitly by the operator: the command runs on the host in
 * its working directory with the policy's environment, in its own process group (ended with
 * it, background processes included), within the wall time and the process concurrency bound.
 * Nothing else of the policy is enforced.
 */
export class UnconfinedLauncher implements ProcessLauncher {
  readonly slots: RunProcessSlots;

  constructor(semaphore: FairSemaphore) {
    this.slots = new RunProcessSlots(semaphore);
  }

  async status(): Promise<LauncherStatus> {
    return {
      mode: 'off',
      enforced: ['wall time', 'the process group ends with the call'],
      warnings: [SANDBOX_OFF_WARNING],
    };
  }

  async launch(
    policy: SandboxPolicy,
    argv: readonly [string, ...string[]],
    signal?: AbortSignal,
  ): Promise<LaunchedProcess> {
    const release = await this.slots.hold(policy.runId, signal);
    const [file, ...args] = argv;
    try {
      const child = spawn(file, args, {
        cwd: policy.startDir ?? policy.workingDir,
        env: { ...policy.env },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      return watchCall(child, {
        wallTimeMs: policy.limits.wallTimeMs,
        cleanUp: async () => release(),
        afterExit: (pgid) => terminateGroup(pgid, 2000),
      });
    } catch (error) {
      release();
      throw error;
    }
  }
}
