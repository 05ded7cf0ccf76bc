import { approvalOutcome } from '../../guardrails';
import type { RunRecord } from '../../model/records';
import { waitTopics } from '../../ports/wait-signals';
import { expireApproval } from '../approvals/approval-endings';
import { postSystemMessage } from '../cards/system-message';
import { enqueueLeftovers, queueLeftoverSteering } from '../routing/steering';
import { stoppedBySentence, stopRequestOf } from '../stop/stop-run';
import { closeStoppedUnheld, stopUnheldRun } from '../stop/stop-unheld';
import { interruptInFlight, requeueFromCheckpoint } from '../turn/turn-checkpoints';
import { parkOrResumeAwaiting, resumeTurnsAwaitingRun } from '../waits/parked-turns';
import { showEndedRun } from './ended-run-card';
import { abandonHeldPushes, pushAgainNote } from './held-pushes';
import type { RecoveryDeps } from './recovery-deps';
import { restartFromPrompt } from './restart-from-prompt';
import { settleUnheldSession } from './unheld-session';

/**
 * A12, T2: a run left `running` by a worker that died (its heartbeat stopped) is resumed from
 * its checkpoint when it has one (a built-in runner's turn): back to the queue, or, while the
 * call it was at waits for a person's approval, a question's answer or another agent's run,
 * parked until that decision, answer or end re-enqueues it. A built-in runner's turn that died
 * before its first checkpoint starts again from its prompt (`restartFromPrompt`). Only a CLI
 * agent's turn (A9) becomes `dead`, and its thread is told. Queued runs whose wake-up was lost
 * (an in-process queue dies with its process) are enqueued again. Runs at start and then
 * periodically, so one worker notices another's death. Enqueueing is idempotent: a run already waiting is not added twice.
 */
export async function recoverRuns(
  deps: RecoveryDeps,
): Promise<{ dead: string[]; requeued: string[]; resumed: string[]; parked: string[] }> {
  const now = deps.clock.now();
  const staleBefore = new Date(now.getTime() - deps.timings.deadAfterMs);
  const { silent, queued } = await deps.store.transaction(async (tx) => ({
    silent: await tx.runs.listSilentSince(staleBefore),
    queued: await tx.runs.listByStatus(['queued']),
  }));

  const dead: string[] = [];
  const resumed: string[] = [];
  const parked: string[] = [];
  // A12, T2: during a database or Redis outage, and for `deadAfterMs` after it, silence proves
  // nothing: the processes running these turns could not write their heartbeats either, and
  // are alive and retrying. Judged once the grace is over, a run still silent is dead.
  const excused = deps.outage?.silenceIsExcused(deps.timings.deadAfterMs) ?? false;
  if (excused && silent.length > 0) {
    deps.logger.info({ runs: silent.length }, 'silent runs not judged: a service was away just now');
  }
  for (const run of excused ? [] : silent) {
    // One run whose thread cannot be told (a deleted channel) must not stop the others' recovery.
    try {
      const outcome = await recoverSilentRun(deps, run, now, staleBefore);
      if (outcome === 'resumed') resumed.push(run.id);
      else if (outcome === 'parked') parked.push(run.id);
      else if (outcome === 'none' && (await markDead(deps, run, now, staleBefore))) dead.push(run.id);
    } catch (error) {
      deps.logger.error({ err: error, runId: run.id }, 'could not finish recovering a dead run');
    }
  }
  for (const run of queued) await deps.queue.enqueue({ id: run.id, data: { runId: run.id } });
  // A dead run freed its lane: the lane's next queued run (if any) was enqueued above.
  return { dead, requeued: queued.map((r) => r.id), resumed, parked };
}

/**
 * T2: a silent run. With a checkpoint waiting on a pending approval: parked (no process holds
 * it; the decision re-enqueues it), and expired once its time is up; on a question or another
 * run (A9): parked until the answer or the run's end (`parked-turns.ts`). Otherwise it goes
 * back to the queue and resumes from the checkpoint, or from its prompt when a built-in runner
 * had not written one yet. `none`: no checkpoint, and a runner that never writes one (A9).
 * `taken`: another process requeued or claimed it since it was listed.
 */
async function recoverSilentRun(
  deps: RecoveryDeps,
  run: RunRecord,
  now: Date,
  staleBefore: Date,
): Promise<'resumed' | 'parked' | 'none' | 'taken'> {
  // A12, T2: listed a while ago; another process may have requeued or claimed it since.
  if (!(await stillSilent(deps, run, staleBefore))) return 'taken';
  // G5, T2: a push it held at the gateway died with its process: the card says push again.
  const pushes = await abandonHeldPushes(deps, run);
  const { checkpoint, approval } = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    const checkpoint = await tx.checkpoints.find(run.id);
    const approvalId = checkpoint?.approvalId ?? null;
    return { checkpoint, approval: approvalId === null ? null : await tx.approvals.findById(approvalId) };
  });
  // T2: no checkpoint: a built-in turn starts again from its prompt; a CLI agent's is dead.
  if (checkpoint === null) return restartFromPrompt(deps, run, staleBefore);
  const told = pushes.length > 0 && checkpoint.approvalId === null;
  const resolved = told ? interruptInFlight(checkpoint.checkpoint, pushAgainNote(pushes)) : null;
  if (resolved !== null) {
    // T2: the call that pushed is answered now, so the agent hears that its push was not sent.
    await deps.store.inWorkspace(run.workspaceId, (tx) =>
      tx.checkpoints.save(run.workspaceId, {
        runId: run.id,
        checkpoint: resolved,
        statusCardRef: checkpoint.statusCardRef,
        at: now,
      }),
    );
  }
  // T2, A9: waiting on a question or another agent's run: parked until it comes, or resumed.
  const awaits = checkpoint.awaits;
  if (resolved === null && checkpoint.approvalId === null && awaits !== null) {
    const outcome = await parkOrResumeAwaiting(deps, run, { ...checkpoint, awaits });
    if (outcome === 'parked') await afterParking(deps, run, checkpoint.parkedAt === null);
    return outcome;
  }
  if (approval !== null && approval.status === 'pending') {
    if (approvalOutcome(approval, now) === 'pending') {
      const newlyParked = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
        const parked = await tx.checkpoints.park(run.id, now);
        // A12, A13: a parked turn is blocked on its approval, not silent or dead.
        if (parked) await tx.runs.update(run.id, { liveness: 'blocked' });
        return parked;
      });
      if (newlyParked)
        deps.logger.info({ runId: run.id, approvalId: approval.id }, 'turn parked on its approval');
      await afterParking(deps, run, newlyParked);
      return 'parked';
    }
    // G4: due and unanswered: it lapses (the card says so), and the turn resumes to be told.
    await expireApproval(deps, approval);
  }
  return (await requeueFromCheckpoint(deps, run, { silentBefore: staleBefore })) ? 'resumed' : 'taken';
}

/** A12: the run is still `running` and has proved itself alive no later than `staleBefore`. */
async function stillSilent(deps: RecoveryDeps, run: RunRecord, staleBefore: Date): Promise<boolean> {
  const current = await deps.store.inWorkspace(run.workspaceId, (tx) => tx.runs.findById(run.id));
  if (current?.status !== 'running') return false;
  return (current.lastEventAt ?? current.startedAt ?? current.createdAt) < staleBefore;
}

/**
 * P15, T2: a turn just parked. A Stop asked while its worker was dying (stored, never carried
 * out) ends it now, as a Stop on a parked turn does; otherwise, newly parked, the platform's
 * session its dead worker left at `processing` shows it `suspended`.
 */
async function afterParking(deps: RecoveryDeps, run: RunRecord, newly: boolean): Promise<void> {
  const by = stopRequestOf(run);
  if (by !== null) {
    const taken = await deps.store.inWorkspace(run.workspaceId, (tx) =>
      stopUnheldRun(tx, deps, run, stoppedBySentence(by)),
    );
    if (taken.stopped !== null) {
      deps.logger.info({ runId: run.id, stoppedBy: by }, 'parked turn stopped: its stop was asked before');
      await closeStoppedUnheld(deps, taken.stopped, by, stoppedBySentence(by));
      return;
    }
  }
  if (newly) await settleUnheldSession(deps, run, 'suspended');
}

async function markDead(deps: RecoveryDeps, run: RunRecord, now: Date, staleBefore: Date): Promise<boolean> {
  const marked = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    const current = await tx.runs.findById(run.id);
    if (current?.status !== 'running') return null;
    // A12: its heartbeat came back since it was listed (its process was alive after all).
    if (current.lastEventAt !== null && current.lastEventAt >= staleBefore) return null;
    // T2: a checkpoint written since it was read: it resumes (the next sweep), never dead.
    if ((await tx.checkpoints.find(run.id)) !== null) return null;
    // P16: a message that waited to join the dead turn starts a turn of its own.
    const leftovers = await queueLeftoverSteering(tx, deps, run);
    await tx.runs.update(run.id, {
      status: 'failed',
      liveness: 'dead',
      finishedAt: now,
      error: 'the worker running this turn stopped',
    });
    const conversation = await tx.conversations.findById(run.conversationId);
    const agent = (await tx.agents.list(run.workspaceId)).find((a) => a.id === run.agentId);
    return { conversation, agent, finished: await tx.runs.findById(run.id), leftovers };
  });
  if (marked !== null) await enqueueLeftovers(deps, marked.leftovers);
  // T1: a turn waiting for this one looks again (and finds it failed); T2: one parked resumes.
  if (marked !== null) await deps.waits.notify(waitTopics.run(run.id));
  if (marked !== null) await resumeTurnsAwaitingRun(deps, run);
  if (marked === null || marked.conversation === null) return marked !== null;
  deps.logger.warn({ runId: run.id }, 'run marked dead: its worker stopped');
  const name = marked.agent?.name ?? 'an agent';
  await postSystemMessage(
    deps,
    marked.conversation,
    `${name}'s turn was interrupted because the worker running it stopped. Mention @${name} again to retry.`,
  );
  if (marked.finished !== null) {
    await showEndedRun(deps, marked.finished, {
      state: 'failed',
      headline: 'Interrupted: its worker stopped',
    });
  }
  // P15: the platform's session its dead worker left at `processing` is closed.
  await settleUnheldSession(deps, run, 'closed');
  return true;
}
