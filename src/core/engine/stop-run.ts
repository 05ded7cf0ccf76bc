import { canApprove } from '../model/member';
import type { RunRecord } from '../model/records';
import type { PlatformActor } from '../ports/chat-engine';
import { waitTopics } from '../ports/wait-signals';
import type { EngineDeps } from './engine-deps';
import { resolveActor } from './resolve-sender';

/**
 * P15: how a stop request is stored: the running run's `error` names who asked. It is the
 * sentence the run keeps once it has stopped, and it outlives a lost notification (the worker
 * reads it when it subscribes), so no column of its own is needed.
 */
const STOPPED_BY = 'Stopped by @';

export const stoppedBySentence = (name: string) => `${STOPPED_BY}${name}`;

/** Who asked run `run` to stop, while it still runs; null when nobody did. */
export function stopRequestOf(run: Pick<RunRecord, 'status' | 'error'> | null): string | null {
  if (run === null || run.status !== 'running' || run.error === null) return null;
  return run.error.startsWith(STOPPED_BY) ? run.error.slice(STOPPED_BY.length) : null;
}

/**
 * P15: who asked run `runId` to stop, read from the store now — while it still runs, or once it
 * ended stopped (a push held at the gateway can outlive its turn); null when nobody did.
 */
export async function stoppedByOf(
  deps: Pick<EngineDeps, 'store'>,
  runId: string,
  workspaceId: string,
): Promise<string | null> {
  const run = await deps.store.inWorkspace(workspaceId, (tx) => tx.runs.findById(runId));
  if (run?.status === 'failed') return stopRequestOf({ status: 'running', error: run.error });
  return stopRequestOf(run);
}

/**
 * P15: a click on Stop. The person who started the turn, or an owner, admin or approver of its
 * workspace, may; the request is stored on the run and the worker running it, in whichever
 * process, is told (`waitTopics.runStop`): it aborts the turn (its tools and waits end), marks
 * it failed, says on the card who stopped it, and wakes nobody (M14).
 */
export async function stopRun(
  deps: Pick<EngineDeps, 'store' | 'waits' | 'logger'>,
  runId: string,
  actor: PlatformActor,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const result = await deps.store.transaction(
    async (tx): Promise<{ ok: true; notify: boolean } | { ok: false; reason: string }> => {
      const run = await tx.runs.findById(runId);
      if (run === null) return { ok: false, reason: `There is no turn ${runId}.` };
      const member = await resolveActor(tx, actor);
      if (member === null || member.workspaceId !== run.workspaceId) {
        return { ok: false, reason: 'Only members of this workspace can stop its turns.' };
      }
      if (member.id !== run.startedByMemberId && !canApprove(member.role)) {
        return {
          ok: false,
          reason: `Only the person who started this turn, or an owner, admin or approver, can stop it (your role is ${member.role}).`,
        };
      }
      if (run.status !== 'running') return { ok: false, reason: 'This turn has already ended.' };
      // A second click while the first is being carried out changes nothing.
      if (stopRequestOf(run) !== null) return { ok: true, notify: false };
      await tx.runs.update(run.id, { error: stoppedBySentence(member.nickname) });
      deps.logger.info({ runId, memberId: member.id, role: member.role }, 'turn stop requested');
      return { ok: true, notify: true };
    },
  );
  if (!result.ok) {
    deps.logger.info({ runId, reason: result.reason }, 'stop refused');
    return result;
  }
  if (result.notify) await deps.waits.notify(waitTopics.runStop(runId));
  return { ok: true };
}
