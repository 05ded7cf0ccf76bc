import type { QuestionRecord } from '../../model/question-record';
import type { RunRecord } from '../../model/records';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import { cancelQuestion } from '../agent-tools/questions';
import { withdrawApproval } from '../approvals/approval-endings';
import { showEndedRun } from '../recovery/ended-run-card';
import { settleUnheldSession } from '../recovery/unheld-session';
import { enqueueLeftovers, queueLeftoverSteering } from '../routing/steering';
import { resumeTurnsAwaitingRun } from '../waits/parked-turns';
import type { StopDeps } from './stop-deps';

/** P15, T2: a run a Stop ended in the transaction that handled it, and what it left open. */
export interface StoppedUnheldRun {
  finished: RunRecord;
  /** The approval its in-flight call waited on (a parked or resumed-and-queued turn). */
  approvalId: string | null;
  question: QuestionRecord | null;
  /** Runs to enqueue once committed: steering leftovers, and the freed lane's next turn. */
  leftovers: string[];
  /** It had started (a checkpoint): its platform session was shown, and is closed. */
  started: boolean;
}

/**
 * P15, T2: a Stop on a run no process holds — parked on an approval, a question or another
 * run (its worker died), or queued and not started — ends it here, in the Stop's transaction
 * (`error`: "Stopped by @x"). The lane's lock comes first, so no worker claims the run
 * meanwhile; a parked run is taken by the same compare-and-set a resume takes it with
 * (`unpark`), so of a Stop and a resume exactly one has it: a resume that came first left it
 * queued, and it is ended as queued. Null when a live worker holds it (the Stop is then a
 * request its worker carries out) or it ended meanwhile (`current`: the run as read then).
 */
export async function stopUnheldRun(
  tx: StoreTx,
  deps: Pick<StopDeps, 'clock'>,
  run: RunRecord,
  error: string,
): Promise<{ stopped: StoppedUnheldRun } | { stopped: null; current: RunRecord | null }> {
  await tx.steering.lockRunningTurn(run.agentId, run.conversationId);
  let current = await tx.runs.findById(run.id);
  if (current?.status === 'running' && !(await tx.checkpoints.unpark(run.id))) {
    // Not parked, or a resume took it first (then it is queued: read again, past its commit).
    current = await tx.runs.findById(run.id);
    if (current?.status === 'running') return { stopped: null, current };
  }
  if (current === null || (current.status !== 'queued' && current.status !== 'running'))
    return { stopped: null, current };
  const checkpoint = await tx.checkpoints.find(run.id);
  await tx.checkpoints.remove(run.id);
  // P16: a message that waited to join the turn starts a turn of its own.
  const leftovers = await queueLeftoverSteering(tx, deps, current);
  // The lane it held is free and no worker is on it: its next queued turn is woken (once committed).
  const next =
    current.status === 'running' ? await tx.runs.oldestQueued(run.agentId, run.conversationId) : null;
  if (next !== null && !leftovers.includes(next)) leftovers.push(next);
  const now = deps.clock.now();
  await tx.runs.update(run.id, {
    status: 'failed',
    liveness: 'failed',
    error,
    finishedAt: now,
    lastEventAt: now,
  });
  const awaits = checkpoint?.awaits ?? null;
  const question = awaits?.kind === 'question' ? await tx.questions.findById(awaits.id) : null;
  return {
    stopped: {
      finished: (await tx.runs.findById(run.id)) ?? current,
      approvalId: checkpoint?.approvalId ?? null,
      question: question?.status === 'pending' ? question : null,
      leftovers,
      started: checkpoint !== null,
    },
  };
}

/**
 * P15, M14: after the Stop's transaction, what the stopped run left open is closed as for a
 * turn stopped while it ran — the approval or question it waited on says who stopped it (a
 * later click is refused), its card says "Stopped by @x", its note is redrawn, the platform's
 * session is closed — and nobody is woken; a turn waiting for it (ask_agent) is told it ended.
 */
export async function closeStoppedUnheld(
  deps: StopDeps,
  stopped: StoppedUnheldRun,
  by: string,
  sentence: string,
): Promise<void> {
  const { finished } = stopped;
  await enqueueLeftovers(deps, stopped.leftovers);
  deps.metrics?.turnFinished(finished.status, finished.liveness);
  if (stopped.approvalId !== null) await withdrawApproval(deps, stopped.approvalId, sentence);
  if (stopped.question !== null) await cancelQuestion(deps, stopped.question, by);
  await showEndedRun(deps, finished, { state: 'stopped', headline: sentence });
  if (stopped.started) await settleUnheldSession(deps, finished, 'closed');
  // T1, T2: a turn waiting for this one looks again (and finds it failed), parked or not.
  await deps.waits.notify(waitTopics.run(finished.id));
  await resumeTurnsAwaitingRun(deps, finished);
}
