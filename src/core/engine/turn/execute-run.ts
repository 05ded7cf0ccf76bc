import { NotFoundError } from '../../errors';
import type { RunRecord } from '../../model/records';
import { notifiesOnFinish } from '../../notes';
import { DeliveryError } from '../../outbox/delivery-error';
import type { Logger } from '../../ports/logger';
import type { RunCheckpointRecord } from '../../ports/run-checkpoints';
import { postSystemMessage } from '../cards/system-message';
import { wakeAfterTurn } from '../routing/wake-after-turn';
import type { StopListener } from '../stop/stop-listener';
import { stoppedByOf } from '../stop/stop-run';
import { watchTurnCheck } from '../turn-checks-hooks';
import {
  failOnPlatform,
  finishRun,
  type PostedReply,
  postReply,
  refreshTriggerNote,
  refuseOverBudget,
  type TurnResult,
} from './finish-turn';
import type { LoadedTurn } from './load-claimed-turn';
import { RunHeartbeat } from './run-heartbeat';
import { runTurn } from './run-turn';
import { SignOfLife } from './sign-of-life';
import { StatusCardPublisher } from './status-card-publisher';
import { prepareResume } from './turn-checkpoints';
import { type TurnContext, turnLogBindings } from './turn-context';
import type { TurnDeps } from './turn-deps';
import { openTurnSession } from './turn-platform-session';
import { TurnReplyStream } from './turn-reply-stream';
import { openCardAndListen } from './turn-stop';
import { storedReplyOf } from './turn-writes';

/**
 * One turn, claimed by this worker (and read, `loadClaimedTurn`): status card, runner,
 * liveness, reply, run record, then the wake chain (M14: only after a clean end). `signal`
 * aborts when the worker shuts down. Resolves to whether the lane may have another queued run
 * (false: its finish saw none).
 */
export async function executeRun(
  deps: TurnDeps,
  claimed: RunRecord,
  loaded: LoadedTurn | NotFoundError,
  signal: AbortSignal,
  /** P15: the run's Stop, listened for since before its claim; null: the turn reads its run back. */
  listening: StopListener | null = null,
): Promise<boolean> {
  // A12: alive from the claim until the run is finished and stored (T2: through an outage too).
  const heartbeat = new RunHeartbeat(deps.store, deps.clock, deps.logger, claimed, deps.timings.heartbeatMs);
  heartbeat.start();
  try {
    if (loaded instanceof NotFoundError) throw loaded;
    try {
      return await executeClaimedRun(deps, claimed, loaded, signal, listening);
    } catch (error) {
      if (!(error instanceof DeliveryError)) throw error;
      return await failOnPlatform(deps, loaded.context, error);
    }
  } finally {
    heartbeat.stop();
    // Closed by the turn when it ran; here when it did not get that far.
    listening?.close();
  }
}

async function executeClaimedRun(
  deps: TurnDeps,
  claimed: RunRecord,
  { context, stored }: LoadedTurn,
  signal: AbortSignal,
  listening: StopListener | null,
): Promise<boolean> {
  const { agent, conversation } = context;
  const log = deps.logger.child(turnLogBindings(context));
  const platform = deps.platforms.get(conversation.platform);
  const thread = conversation.threadId;
  if (platform === undefined || thread === null) {
    const ended = await finishRun(deps, context, {
      ok: false,
      error: `no ${conversation.platform} connection to post in`,
      interrupted: false,
    });
    return ended.laneHasMore;
  }

  // O3: no turn starts while a budget that bounds it is used up.
  const refused = await refuseOverBudget(deps, context, log);
  if (refused !== null) return refused.laneHasMore;

  const card = new StatusCardPublisher(
    platform,
    thread,
    agent,
    deps.timings.statusEditIntervalMs,
    log,
    deps.clock,
    claimed.id,
  );
  watchTurnCheck(deps, card); // P21: a turn on a pull request shows as its check, following the card
  // P9, P14 (decision): the card, the session and the stream wait for the turn's sign of life.
  const sign = new SignOfLife(deps.timings.signOfLifeMs);
  const { stop, current } = await openCardAndListen(deps, claimed, card, sign, listening).catch(
    (error: unknown) => {
      sign.end();
      throw error;
    },
  );
  let reply: TurnReplyStream;
  try {
    await refreshTriggerNote(deps, context, claimed);
    // P14: the reply streams where the platform can; tool calls show there or on the card.
    reply = new TurnReplyStream(
      card,
      platform,
      thread,
      context,
      log,
      async () => (await stoppedByOf(deps, claimed.id, claimed.workspaceId)) !== null,
      sign,
      deps.liveCards,
    );
  } catch (error) {
    sign.end();
    stop.close();
    throw error;
  }
  // P15: the platform's own session (Slack's agent session) follows the turn until it ends.
  const session = openTurnSession(deps, platform, thread, context, sign);
  try {
    return await runAndFinish(deps, context, {
      claimed,
      stored,
      signal,
      card,
      reply,
      log,
      stop,
      current,
      sign,
    });
  } finally {
    sign.end();
    await session.end();
  }
}

/** What a claimed turn opened before its runner starts. */
interface OpenedTurn {
  claimed: RunRecord;
  stored: RunCheckpointRecord | null;
  signal: AbortSignal;
  card: StatusCardPublisher;
  reply: TurnReplyStream;
  log: Logger;
  stop: StopListener;
  current: RunRecord | null;
  sign: SignOfLife;
}

/**
 * The turn from its runner's start to its end: the reply or the stop, the run stored, the wake
 * chain. Resolves to whether the lane may have another queued run.
 */
async function runAndFinish(deps: TurnDeps, context: TurnContext, turn: OpenedTurn): Promise<boolean> {
  const { claimed, card, reply, log } = turn;
  const { agent, conversation } = context;
  const { result, earlier } = await runOrRecall(deps, context, turn);
  log.info({ ok: result.ok }, 'turn finished');
  if (!result.ok && result.interrupted) {
    // The worker is shutting down: the run goes back to the queue and starts again elsewhere.
    await reply.abandon();
    // T2: a card not posted yet is posted when the turn runs again.
    await card.finish('stopped', 'Interrupted; it will start again', 'skip');
    await deps.store.inWorkspace(claimed.workspaceId, (tx) =>
      tx.runs.update(claimed.id, { status: 'queued', liveness: 'ok', startedAt: null }),
    );
    return true;
  }
  if (!result.ok && result.stoppedBy !== undefined) {
    // P15: the card says who stopped the turn; it posts no reply and (M14) wakes nobody.
    await reply.abandon();
    await card.finish('stopped', result.error);
    const stopped = await finishRun(deps, context, result);
    await refreshTriggerNote(deps, context, stopped.run);
    return stopped.laneHasMore;
  }
  let posted: PostedReply | null = null;
  if (result.ok) {
    // P14: a stream still held stays unopened; P7: a card never taken fails here (`failOnPlatform`).
    await Promise.all([reply.unshown(), card.posted()]);
    await card.finish('done', 'Done', 'skip'); // P9 (decision): done before its sign of life, no card
    // T2, P7: a reply an earlier claim stored is the outbox's to show, never posted again.
    posted = earlier ?? (await postReply(deps, context, result.reply, reply));
  } else {
    await reply.abandon();
    await card.finish('failed', result.budget === undefined ? 'Failed' : 'Stopped: budget reached');
  }
  const ended = await finishRun(deps, context, result, posted);
  await refreshTriggerNote(deps, context, ended.run);
  if (!result.ok && result.budget !== undefined) {
    // O3: which budget, and how to raise it, whoever started the turn.
    await postSystemMessage(deps, conversation, result.error);
    return ended.laneHasMore;
  }
  if (!result.ok) {
    // N14: a turn started by an agent sends no "failed" notification (its card still shows
    // it); the agent that waits for it reports itself.
    if (notifiesOnFinish(ended.run, context.trigger)) {
      await postSystemMessage(deps, conversation, `${agent.name}'s turn failed: ${result.error}`);
    }
    return ended.laneHasMore;
  }
  // M14: only a turn that ended cleanly wakes anyone.
  await wakeAfterTurn(deps, context, result.reply);
  return ended.laneHasMore;
}

/**
 * The runner's turn; or, T2, P7, the reply an earlier claim of this run stored before its worker
 * died (the run names it): that turn had ended, and the calls that show its reply are the
 * outbox's (a restart's `resume` sends them; one caught mid-send is failed rather than posted
 * twice). The run is finished with that reply: the model is not asked again, so the thread is
 * never answered twice.
 */
async function runOrRecall(
  deps: TurnDeps,
  context: TurnContext,
  turn: OpenedTurn,
): Promise<{ result: TurnResult; earlier: PostedReply | null }> {
  const { claimed, stored, signal, card, reply, log, stop, current, sign } = turn;
  try {
    const earlier = await storedReplyOf(deps, claimed);
    if (earlier !== null) {
      log.info(
        { messageId: earlier.id },
        'the turn had ended before its worker stopped: its stored reply ends it',
      );
      await reply.abandon();
      return {
        result: { ok: true, reply: earlier.text },
        earlier: { messageId: earlier.id, ref: earlier.platformMessageRef },
      };
    }
    const resume = stored === null ? undefined : prepareResume(stored);
    if (resume !== undefined) log.info({ step: stored?.step }, 'turn resumes from its checkpoint');
    const result = await runTurn(deps, context, reply, signal, {
      cardRef: () => card.currentRef(),
      resume,
      stop,
      current,
      sign,
    });
    return { result, earlier: null };
  } finally {
    stop.close();
    sign.end(); // P9, P14: what the turn had not shown yet is not shown now: its end shows instead.
  }
}
