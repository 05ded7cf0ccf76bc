import { turnStopped } from '../../audit/audit-entries';
import { canApprove } from '../../model/member';
import type { RunRecord } from '../../model/records';
import type { PlatformActor } from '../../ports/chat-engine';
import { waitTopics } from '../../ports/wait-signals';
import { resolveActor } from '../routing/resolve-sender';
import type { StopDeps } from './stop-deps';
import { closeStoppedUnheld, type StoppedUnheldRun, stopUnheldRun } from './stop-unheld';

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
  deps: Pick<StopDeps, 'store'>,
  runId: string,
  workspaceId: string,
): Promise<string | null> {
  const run = await deps.store.inWorkspace(workspaceId, (tx) => tx.runs.findById(runId));
  if (run?.status === 'failed') return stopRequestOf({ status: 'running', error: run.error });
  return stopRequestOf(run);
}

/**
 * P15: a click on Stop. The person who started the turn, or an owner, admin or approver of its
 * workspace, may. A turn a worker runs, in whichever process, is asked: the request is stored
 * on the run and its worker is told (`waitTopics.runStop`): it aborts the turn (its tools and
 * waits end), marks it failed, says on the card who stopped it, and wakes nobody (M14). A turn
 * no process holds (T2: parked on a wait after its worker died; or queued, not started) is
 * ended here at once, the same way (`stop-unheld.ts`), and never runs.
 */
export async function stopRun(
  deps: StopDeps,
  runId: string,
  actor: PlatformActor,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  type Outcome =
    | { ok: true; notify: boolean; stopped: StoppedUnheldRun | null; by: string }
    | { ok: false; reason: string };
  const result = await deps.store.transaction(async (tx): Promise<Outcome> => {
    const run = await tx.runs.findById(runId);
    if (run === null) return { ok: false, reason: `There is no turn ${runId}.` };
    const member = await resolveActor(tx, actor, deps.platforms);
    if (member === null || member.workspaceId !== run.workspaceId) {
      return { ok: false, reason: 'Only members of this workspace can stop its turns.' };
    }
    if (member.id !== run.startedByMemberId && !canApprove(member.role)) {
      return {
        ok: false,
        reason: `Only the person who started this turn, or an owner, admin or approver, can stop it (your role is ${member.role}).`,
      };
    }
    const ended = { ok: false as const, reason: 'This turn has already ended.' };
    if (run.status !== 'running' && run.status !== 'queued') return ended;
    const by = member.nickname;
    const taken = await stopUnheldRun(tx, deps, run, stoppedBySentence(by));
    const log = { runId, memberId: member.id, role: member.role };
    if (taken.stopped !== null) {
      await tx.audit.append(run.workspaceId, turnStopped(run, member, actor.platform)); // O4
      deps.logger.info({ ...log, was: run.status }, 'turn stopped: no worker held it');
      return { ok: true, notify: false, stopped: taken.stopped, by };
    }
    const current = taken.current;
    if (current?.status !== 'running') return ended;
    // A second click while the first is being carried out changes nothing.
    if (stopRequestOf(current) !== null) return { ok: true, notify: false, stopped: null, by };
    await tx.runs.update(run.id, { error: stoppedBySentence(by) });
    await tx.audit.append(run.workspaceId, turnStopped(current, member, actor.platform)); // O4
    deps.logger.info(log, 'turn stop requested');
    return { ok: true, notify: true, stopped: null, by };
  });
  if (!result.ok) {
    deps.logger.info({ runId, reason: result.reason }, 'stop refused');
    return result;
  }
  if (result.stopped !== null)
    await closeStoppedUnheld(deps, result.stopped, result.by, stoppedBySentence(result.by));
  if (result.notify) await deps.waits.notify(waitTopics.runStop(runId));
  return { ok: true };
}
