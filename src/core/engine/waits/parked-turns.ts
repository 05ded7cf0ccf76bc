import type { RunRecord } from '../../model/records';
import type { CheckpointAwait, RunCheckpointRecord } from '../../ports/run-checkpoints';
import type { StoreTx } from '../../ports/store';
import { requeueFromCheckpoint } from '../turn/turn-checkpoints';
import type { WaitsDeps } from './waits-deps';

type ParkDeps = Pick<WaitsDeps, 'store' | 'queue' | 'clock' | 'logger'>;

/**
 * T2, A9: whether what a checkpointed call awaits is still to come: a question still pending,
 * another run still queued or running, and its end time (if any) not passed.
 */
async function stillAwaited(tx: StoreTx, awaits: CheckpointAwait, now: Date): Promise<boolean> {
  if (awaits.until !== null && awaits.until <= now) return false;
  if (awaits.kind === 'question') return (await tx.questions.findById(awaits.id))?.status === 'pending';
  const run = await tx.runs.findById(awaits.id);
  return run?.status === 'queued' || run?.status === 'running';
}

/**
 * T2, A9: recovery of a silent turn whose in-flight call waits on a question or another run.
 * Still awaited: the turn is parked (no process holds it, nothing polls; the answer or the
 * run's end re-enqueues it) and shows as blocked (A12, A13). Answered, ended or past its end
 * time (possibly while no process was up): it goes back to the queue and resumes, its call
 * reading what it waited on. Read again after parking, so an answer that came in between is
 * not missed.
 */
export async function parkOrResumeAwaiting(
  deps: ParkDeps,
  run: RunRecord,
  checkpoint: RunCheckpointRecord & { awaits: CheckpointAwait },
): Promise<'parked' | 'resumed' | 'taken'> {
  const { awaits } = checkpoint;
  const now = deps.clock.now();
  const parked = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    if (!(await stillAwaited(tx, awaits, now))) return false;
    // A12, A13: a parked turn is blocked on what it waits for, not silent or dead.
    if (await tx.checkpoints.park(run.id, now)) await tx.runs.update(run.id, { liveness: 'blocked' });
    return true;
  });
  if (!parked) return (await requeueFromCheckpoint(deps, run)) ? 'resumed' : 'taken';
  const after = await deps.store.inWorkspace(run.workspaceId, (tx) => stillAwaited(tx, awaits, now));
  if (!after && (await requeueFromCheckpoint(deps, run, awaits.id))) return 'resumed';
  if (checkpoint.parkedAt === null) {
    deps.logger.info({ runId: run.id, awaits: awaits.kind, id: awaits.id }, 'turn parked on its wait');
  }
  return 'parked';
}

/**
 * T2, A9: run `run` ended (finished, failed, marked dead): the turns parked waiting for it
 * (`ask_agent`, `delegate_task` whose worker died) go back to the queue. Only a run an agent
 * started can be awaited, so a person's turn costs no look.
 */
export async function resumeTurnsAwaitingRun(
  deps: ParkDeps,
  run: Pick<RunRecord, 'id' | 'workspaceId' | 'startedByAgentId'>,
): Promise<void> {
  if (run.startedByAgentId === null) return;
  const waiting = await deps.store.inWorkspace(run.workspaceId, (tx) =>
    tx.checkpoints.listParkedAwaitingRun(run.id),
  );
  for (const id of waiting) await requeueFromCheckpoint(deps, { id, workspaceId: run.workspaceId }, run.id);
}

/** T2, A9: question `question` was answered: the turn parked on it (if any) goes back to the queue. */
export async function resumeTurnAwaitingQuestion(
  deps: ParkDeps,
  question: { id: string; runId: string; workspaceId: string },
): Promise<void> {
  await requeueFromCheckpoint(deps, { id: question.runId, workspaceId: question.workspaceId }, question.id);
}
