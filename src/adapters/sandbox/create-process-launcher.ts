import os from 'node:os';
import { BubblewrapLauncher } from './bubblewrap-launcher';
import { FairSemaphore } from './fair-semaphore';
import type { ProcessLauncher } from './process-launcher';
import { UnconfinedLauncher } from './unconfined-launcher';

export interface SandboxSettings {
  /** X4: 'off' only when the operator says so (`SUMMON_SANDBOX=off`). */
  mode: 'on' | 'off';
  /** T3: agents' processes (bash calls, CLI agents) running at once. */
  processConcurrency: number;
}

/** 2 × CPUs, at least 2. */
export const defaultProcessConcurrency = (): number => Math.max(2, 2 * os.availableParallelism());

/** The launcher for `settings` (default: the sandbox on, the default concurrency bound). */
export function createProcessLauncher(settings: Partial<SandboxSettings> = {}): ProcessLauncher {
  const slots = new FairSemaphore(settings.processConcurrency ?? defaultProcessConcurrency());
  return settings.mode === 'off' ? new UnconfinedLauncher(slots) : new BubblewrapLauncher(slots);
}
