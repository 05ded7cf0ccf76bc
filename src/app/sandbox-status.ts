import type { LauncherStatus } from '../adapters/sandbox/process-launcher';
import type { Runtime } from './runtime';

/**
 * X4 at start: the sandbox's state in the log. Unavailable is an error that says how to fix it
 * (agents' commands are refused until then); `SUMMON_SANDBOX=off` and limits that cannot be
 * enforced here are warnings.
 */
export async function logSandboxStatus(
  runtime: Pick<Runtime, 'launcher' | 'logger'>,
): Promise<LauncherStatus> {
  const status = await runtime.launcher.status();
  const log = runtime.logger.child({ component: 'sandbox' });
  if (status.mode === 'unavailable')
    log.error(
      { mode: status.mode },
      `agents' commands will be refused: ${status.problem ?? 'the sandbox cannot start'}`,
    );
  else if (status.mode === 'bubblewrap')
    log.info({ mode: status.mode, enforced: status.enforced }, 'agents’ commands are confined');
  for (const warning of status.warnings) log.warn({ mode: status.mode }, warning);
  return status;
}
