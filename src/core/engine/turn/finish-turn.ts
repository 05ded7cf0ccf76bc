// The end of a turn: its reply stored and shown (streamed, or posted whole), the run finished in
// one transaction (the reply's ref, the checkpoint removed, steering leftovers queued), and the
// note that started it redrawn (N9).

import { budgetStopped } from '../../audit/audit-entries';
import type { RunRecord } from '../../model/records';
import { notifiesOnFinish } from '../../notes';
import { type DeliveryError, DeliveryStopped } from '../../outbox/delivery-error';
import type { Logger } from '../../ports/logger';
import type { SentCall } from '../../ports/outbox';
import { waitTopics } from '../../ports/wait-signals';
import { budgetMessage } from '../../usage/budget';
import { noteAuthorOf } from '../cards/note-author';
import { noteMessage } from '../cards/note-card';
import { noteSourceOf } from '../cards/note-source';
import { postSystemMessage } from '../cards/system-message';
import { enqueueLeftovers, queueLeftoverSteering } from '../routing/steering';
import { reportTurnEnd } from '../turn-checks-hooks';
import { resumeTurnsAwaitingRun } from '../waits/parked-turns';
import { type BudgetBreach, exhaustedBudget, type UsageEvent, usageCall } from './run-budget';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';
import type { TurnReplyStream } from './turn-reply-stream';
import { laneKey } from './turn-writes';

/** How a turn ended, as the runner and the engine's checks left it. */
export type TurnResult =
  // O3: `usage`, the answering model call's, is stored with the run's end (one transaction fewer).
  | { ok: true; reply: string; usage?: UsageEvent }
  | { ok: false; error: string; interrupted: boolean; budget?: BudgetBreach; stoppedBy?: string };

/** The stored reply and its ref on the platform, recorded by `finishRun` in its transaction. */
export interface PostedReply {
  messageId: string;
  /** Null when the worker stopped while the reply waited on the platform (P7, T2: it goes out at the next start). */
  ref: string | null;
  /** P7, T3: its stored calls that went out, recorded as sent with the run's end. */
  sent?: readonly SentCall[];
}

export async function postReply(
  deps: TurnDeps,
  context: TurnContext,
  reply: string,
  stream: TurnReplyStream,
): Promise<PostedReply | null> {
  const stored = { messageId: '' };
  try {
    return await storeAndShow(deps, context, reply, stream, stored);
  } catch (error) {
    // P7, T2: the worker stopped while the platform could not take the reply: the reply and the
    // calls that show it are stored, and the next start sends them. The turn has ended; it is
    // finished, not left running to be taken for dead and answered again.
    if (error instanceof DeliveryStopped && stored.messageId !== '')
      return { messageId: stored.messageId, ref: null };
    throw error;
  }
}

async function storeAndShow(
  deps: TurnDeps,
  context: TurnContext,
  reply: string,
  stream: TurnReplyStream,
  stored: { messageId: string },
): Promise<PostedReply | null> {
  const { run, agent, conversation } = context;
  const toStore = { runId: run.id, conversationId: conversation.id, agentId: agent.id, text: reply };
  const platform = deps.platforms.get(conversation.platform);
  const thread = conversation.threadId;
  // N6: the reply is never folded; it is ordinary text under the agent's name (P2).
  const message = {
    as: { kind: 'agent' as const, name: agent.name, avatarUrl: agent.avatarUrl },
    content: { kind: 'text' as const, text: reply },
  };
  if (platform?.postStored !== undefined && thread !== null && (await stream.unshown())) {
    // P7, T2: nothing streamed (P14: or its start was still held): the reply, the run naming it and the calls that post it are
    // stored in one commit (T3: with other turns' replies), before anyone can see it.
    await stream.abandon();
    const sent: SentCall[] = [];
    const ref = await platform.postStored(thread, message, {
      workspaceId: run.workspaceId,
      members: context.members,
      store: async (write) => {
        stored.messageId = await deps.turnWrites.storeReply(run.workspaceId, toStore, write);
      },
      // T3: marked sent in the finish's commit, not one of their own (P7: never sent again meanwhile).
      recordSent: (calls) => sent.push(...calls),
    });
    return { messageId: stored.messageId, ref, sent };
  }
  // Stored before it is shown; T3: with the replies of turns storing theirs at the same time.
  stored.messageId = await deps.turnWrites.storeReply(run.workspaceId, toStore);
  if (platform === undefined || thread === null) return null;
  // P14: a streamed reply is already in the thread; what did not stream is posted whole.
  const ref = (await stream.finish(reply)) ?? (await platform.post(thread, message));
  return { messageId: stored.messageId, ref };
}

/** A finished run, and whether its lane has another queued run for this worker to go on with. */
export interface FinishedRun {
  run: RunRecord;
  /** T3: read under the lane's lock; false lets the worker end the lane without another claim. */
  laneHasMore: boolean;
}

export async function finishRun(
  deps: TurnDeps,
  context: TurnContext,
  result: TurnResult,
  posted: PostedReply | null = null,
): Promise<FinishedRun> {
  const { run } = context;
  const now = deps.clock.now();
  // T3: with the finishes of turns of this workspace ending at the same time, in one
  // transaction (`TurnWrites`: the lanes' locks taken in the order of their keys).
  const { finished, leftovers, laneHasMore } = await deps.turnWrites.together(
    'finish',
    run.workspaceId,
    async (tx) => {
      // T3: everything asked in this tick, so the store sends it as one message in this order,
      // with the START TRANSACTION, and then the COMMIT: the fewest round trips to the store.
      const [leftovers, , , finished, hasQueued] = await Promise.all([
        // P16: what did not join the turn in time starts a turn of its own: the lane's lock
        // first, then the leftovers taken (their runs are inserted once they are read).
        queueLeftoverSteering(tx, deps, run),
        // The posted reply's ref, in the finishing transaction rather than one of its own.
        posted === null || posted.ref === null
          ? undefined
          : tx.messages.setPlatformRef(posted.messageId, posted.ref),
        // T2: a finished turn is not resumed: its checkpoint goes with it.
        tx.checkpoints.remove(run.id),
        tx.runs.updateAndRead(
          run.id,
          {
            status: result.ok ? 'succeeded' : 'failed',
            // P15: a stop asked as the reply arrived is dropped: the turn ended well.
            ...(result.ok ? { error: null } : { error: result.error, liveness: 'failed' as const }),
            finishedAt: now,
            lastEventAt: now,
          },
          // O3, T3: the last model call's usage, written by the finish's own update of the run.
          result.ok && result.usage !== undefined ? usageCall(result.usage) : undefined,
        ),
        // T3: under the lane's lock, taken first: a run queued after the look waits for it in its
        // own job's claim; one queued before is this worker's to claim next, as is a leftover's.
        tx.runs.hasQueued(run.agentId, run.conversationId),
        // O4: a turn a budget stopped (or refused) is in the audit log with the run's end.
        result.ok || result.budget === undefined
          ? undefined
          : tx.audit.append(
              run.workspaceId,
              budgetStopped(run, context.agent, result.budget, context.conversation.platform),
            ),
        // P7, T3: the reply's calls that went out, recorded as sent with the run's end.
        ...(posted?.sent ?? []).map((call) => tx.outbox.markSent(call.id, call.ref)),
      ]);
      return { finished, leftovers, laneHasMore: hasQueued || leftovers.length > 0 };
    },
    laneKey(run),
  );
  await enqueueLeftovers(deps, leftovers);
  deps.metrics?.turnFinished(finished.status, finished.liveness);
  // P21: the turn's check ends with it (success, failure with the error, or a person's Stop).
  const { agent, conversation } = context;
  reportTurnEnd(
    deps,
    { runId: run.id, agent: agent.name, platform: conversation.platform, thread: conversation.threadId },
    result,
  );
  // T1: a turn waiting for this one (ask_agent, delegate_task), in whichever process, looks again.
  await deps.waits.notify(waitTopics.run(run.id));
  // T2, A9: a waiting turn whose worker died meanwhile is parked: it goes back to the queue.
  await resumeTurnsAwaitingRun(deps, run);
  return { run: finished, laneHasMore };
}

/** N9: a note's fold follows the run it started; redraw it when that run starts and ends. */
export async function refreshTriggerNote(
  deps: TurnDeps,
  context: TurnContext,
  run: RunRecord,
): Promise<void> {
  const note = context.trigger;
  if (note?.note == null || note.platformMessageRef === null || context.conversation.threadId === null)
    return;
  const sender = noteAuthorOf(note, context.agents);
  const platform = deps.platforms.get(context.conversation.platform);
  if (sender === undefined || platform === undefined) return;
  const current = await deps.store.inWorkspace(run.workspaceId, (tx) => tx.messages.findById(note.id));
  if (current === null) return;
  await platform.update(
    context.conversation.threadId,
    note.platformMessageRef,
    noteMessage(
      current,
      run,
      sender,
      deps.relayName,
      await noteSourceOf(deps.store, current, context.conversation.platform, sender),
    ),
  );
}

/**
 * P7, P16: a platform call of the turn (its card, its reply) was given up: the platform refused
 * it for good, or stayed away longer than the outbox waits. The run is finished as failed with
 * the reason, which also starts a turn for each message that steered it and was not taken; the
 * thread is told why, once the platform answers again (the outbox waits for it). A run finished
 * already (a later call failed) is left as it is.
 */
export async function failOnPlatform(
  deps: TurnDeps,
  context: TurnContext,
  error: DeliveryError,
): Promise<boolean> {
  const { run, agent, conversation } = context;
  const log = deps.logger.child({ component: 'turn', runId: run.id });
  const now = await deps.store.inWorkspace(run.workspaceId, (tx) => tx.runs.findById(run.id));
  if (now?.status !== 'running') throw error;
  const reason = `${conversation.platform} did not take its call (${error.message})`;
  log.warn({ err: error }, 'turn failed: a platform call was given up');
  const ended = await finishRun(deps, context, { ok: false, error: reason, interrupted: false });
  if (notifiesOnFinish(ended.run, context.trigger)) {
    await postSystemMessage(deps, conversation, `${agent.name}'s turn failed: ${reason}`).catch(
      (failure: unknown) => log.warn({ err: failure }, 'the failed turn could not be reported in its thread'),
    );
  }
  return ended.laneHasMore;
}

/** O3: a turn whose budget is used up does not start: finished as failed, its thread told why. */
export async function refuseOverBudget(
  deps: TurnDeps,
  context: TurnContext,
  log: Logger,
): Promise<FinishedRun | null> {
  const breach = await exhaustedBudget(deps, context);
  if (breach === null) return null;
  const message = budgetMessage(breach.budget, breach.spent, context.agent.name, 'start');
  log.info({ budget: breach.budget }, 'turn refused: budget used up');
  const refused = await finishRun(deps, context, {
    ok: false,
    error: message,
    interrupted: false,
    budget: breach,
  });
  await refreshTriggerNote(deps, context, refused.run);
  await postSystemMessage(deps, context.conversation, message);
  return refused;
}
