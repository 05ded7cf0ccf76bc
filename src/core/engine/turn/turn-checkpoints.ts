import type { RunRecord } from '../../model/records';
import type { RunCheckpointRecord, TurnCheckpoint } from '../../ports/run-checkpoints';
import type { ResumedWait } from '../../ports/turn-tools-factory';
import type { SignOfLife } from './sign-of-life';
import type { TurnDeps } from './turn-deps';

/**
 * T2: what the model is told about a tool call that was in flight when its worker died: it may
 * have run, partly or wholly, and it is not run again.
 */
export const INTERRUPTED_CALL =
  'Interrupted: the worker running this call stopped (a crash or a restart) before the call reported back. It may have run partly or wholly; it was not run again. Check its effects before you retry it.';

/** The prompt a checkpointed turn was started with, kept so that a resumed turn sees the same one. */
export type CheckpointPrompt = NonNullable<TurnCheckpoint['prompt']>;

/** What `executeRun` hands the runner and the tool kit to go on from a stored checkpoint. */
export interface PreparedResume {
  resumeFrom: TurnCheckpoint;
  /** The turn's original prompt (absent for a checkpoint written without one). */
  prompt: CheckpointPrompt | undefined;
  /** G4, T2: the in-flight call had not run yet: it waits again on the approval it opened. */
  approval: { callId: string; approvalId: string } | undefined;
  /** T2, A9: the in-flight call waited on a question or another run: it waits on it again. */
  awaited: ResumedWait | undefined;
}

/**
 * T2: a stored checkpoint made ready to resume. A call that was in flight is answered as
 * interrupted, unless it was still waiting for its approval (then it has not run, and waits
 * on that approval again: a click runs it, once) or (A9) on a question or another agent's run
 * (its result is read from that one: it waits on it again, asking nothing twice).
 */
export function prepareResume(stored: RunCheckpointRecord): PreparedResume {
  const { prompt, ...checkpoint } = stored.checkpoint;
  const none = { approval: undefined, awaited: undefined };
  const round = checkpoint.round;
  if (round === null || !round.inFlight) return { resumeFrom: checkpoint, prompt, ...none };
  const call = round.calls[round.outcomes.length];
  if (call === undefined)
    return {
      resumeFrom: { ...checkpoint, round: { ...round, inFlight: false } },
      prompt,
      ...none,
    };
  if (stored.approvalId !== null) {
    return {
      resumeFrom: checkpoint,
      prompt,
      ...none,
      approval: { callId: call.callId, approvalId: stored.approvalId },
    };
  }
  if (stored.awaits !== null) {
    return { resumeFrom: checkpoint, prompt, ...none, awaited: { ...stored.awaits, callId: call.callId } };
  }
  return {
    ...none,
    resumeFrom: {
      ...checkpoint,
      round: {
        ...round,
        outcomes: [...round.outcomes, { ok: false, output: INTERRUPTED_CALL }],
        inFlight: false,
      },
    },
    prompt,
  };
}

/**
 * T2: the checkpoint with its in-flight call answered as interrupted, `note` added to what the
 * model is told (e.g. that a push it held was not sent); null when no call is in flight.
 */
export function interruptInFlight(checkpoint: TurnCheckpoint, note: string): TurnCheckpoint | null {
  const round = checkpoint.round;
  if (round === null || !round.inFlight || round.calls[round.outcomes.length] === undefined) return null;
  const outcome = { ok: false, output: `${INTERRUPTED_CALL} ${note}` };
  return { ...checkpoint, round: { ...round, outcomes: [...round.outcomes, outcome], inFlight: false } };
}

/** T2: a turn's checkpoints as its runner writes them, and what is still being written. */
export interface CheckpointWriter {
  /** The runner's `checkpoint` callback. */
  save(state: TurnCheckpoint): Promise<void>;
  /** Resolves once every checkpoint asked for is written; none is written after it. */
  settled(): Promise<void>;
}

/** The checkpoint a new turn's runner writes before its first model call: only its prompt. */
const isOpening = (state: TurnCheckpoint) =>
  state.rounds === 0 && state.round === null && state.exchanges.length === 0 && state.steered === undefined;

/**
 * T2: the runner's `checkpoint` callback for run `run`: each boundary replaces the run's row,
 * with the turn's prompt and its status card (and marks the steering messages it took, P16),
 * in the order they were asked. Awaited by the runner, so a call never runs before its
 * boundary is stored. With `sign`, a new turn's opening checkpoint (no call has run: T2 starts
 * such a turn again from its prompt) waits for the turn's sign of life, and is not written when
 * the turn ends sooner or a later boundary comes first: an instant turn writes none.
 */
export function checkpointWriter(
  deps: Pick<TurnDeps, 'store' | 'clock' | 'logger'>,
  run: RunRecord,
  /** The card's ref as known at each boundary: null until the platform took the card (P7). */
  statusCardRef: () => string | null,
  prompt: CheckpointPrompt,
  sign?: SignOfLife,
): CheckpointWriter {
  let chain: Promise<void> = Promise.resolve();
  let asked = 0;
  let closed = false;
  const write = ({ steered, ...state }: TurnCheckpoint) =>
    deps.store.inWorkspace(run.workspaceId, async (tx) => {
      const at = deps.clock.now();
      await tx.checkpoints.save(run.workspaceId, {
        runId: run.id,
        checkpoint: { ...state, prompt },
        statusCardRef: statusCardRef(),
        at,
      });
      // P16: the steering messages in this transcript are taken with it, or not at all.
      if (steered !== undefined) await tx.steering.markTaken(steered, at);
    });
  const enqueue = (state: TurnCheckpoint): Promise<void> => {
    const done = chain.then(() => write(state));
    chain = done.catch(() => {});
    return done;
  };
  return {
    save: (state) => {
      if (sign !== undefined && !sign.due && isOpening(state)) {
        sign.whenDue(() => {
          if (asked > 0 || closed) return;
          enqueue(state).catch((error: unknown) =>
            deps.logger.warn({ err: error, runId: run.id }, 'the opening checkpoint could not be stored'),
          );
        });
        return Promise.resolve();
      }
      asked += 1;
      return enqueue(state);
    },
    settled: () => {
      closed = true;
      return chain;
    },
  };
}

/**
 * T2: what a requeue is conditioned on: the approval, question or run a parked turn waits on
 * (a decision, an answer, an end), or (recovery, A12) that the run is still silent since
 * `silentBefore`; absent: any run still `running`.
 */
export type RequeueWhen = string | { silentBefore: Date; cardRef?: string | null } | undefined;

/**
 * T2: a run no process holds goes back to the queue, to resume from its checkpoint on any
 * worker, or from its prompt when its built-in runner had not written one yet (recovery's
 * `restartFromPrompt`): the run keeps its card's ref, so the turn goes on on the same card.
 * A string `when`: only if it is parked on that approval, question or run; `silentBefore`:
 * only if no process claimed or requeued it, nor its heartbeat came back, since it was found
 * silent. False when someone else took it.
 */
export async function requeueFromCheckpoint(
  deps: Pick<TurnDeps, 'store' | 'queue' | 'clock' | 'logger'>,
  run: { id: string; workspaceId: string },
  when?: RequeueWhen,
): Promise<boolean> {
  const now = deps.clock.now();
  const step = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    if (typeof when === 'object') {
      // A12, T2: one compare-and-set: of two processes recovering it, one requeues it.
      if (!(await tx.runs.requeueIfSilent(run.id, when.silentBefore, now))) return null;
      // P9: the card the dead worker posted, read back from its thread, is the one it goes on on.
      if (when.cardRef != null) await tx.runs.update(run.id, { statusCardRef: when.cardRef });
      await tx.checkpoints.unpark(run.id);
    } else {
      const unparked = await tx.checkpoints.unpark(run.id, when);
      if (when !== undefined && !unparked) return null;
      const current = await tx.runs.findById(run.id);
      if (current?.status !== 'running') return null;
      await tx.runs.update(run.id, { status: 'queued', liveness: 'ok', lastEventAt: now });
    }
    return (await tx.checkpoints.find(run.id))?.step ?? 0;
  });
  if (step === null) return false;
  // A job id of its own: the dead worker's job may still be held under its lock. (A second
  // job for the same run is harmless: whoever comes second finds it no longer queued.)
  await deps.queue.enqueue({ id: `${run.id}-resume-${step}-${now.getTime()}`, data: { runId: run.id } });
  const parkedOn = typeof when === 'string' ? when : undefined;
  deps.logger.info({ runId: run.id, parkedOn }, 'turn resumes from its checkpoint');
  return true;
}
