import { NotFoundError } from '../../errors';
import type { RunRecord } from '../../model/records';
import type { RunLiveness } from '../../model/run';
import { notifiesOnFinish } from '../../notes';
import type { Logger } from '../../ports/logger';
import type { RunCheckpointRecord } from '../../ports/run-checkpoints';
import { NO_TOOLS } from '../../ports/turn-tools';
import { composePrompt } from '../../prompt';
import { budgetMessage } from '../../usage/budget';
import { postSystemMessage } from '../cards/system-message';
import { openSteeringFeed } from '../routing/steering';
import { wakeAfterTurn } from '../routing/wake-after-turn';
import { StopListener } from '../stop/stop-listener';
import { stoppedByOf, stoppedBySentence, stopRequestOf } from '../stop/stop-run';
import { finishRun, type PostedReply, postReply, refreshTriggerNote, type TurnResult } from './finish-turn';
import type { LoadedTurn } from './load-claimed-turn';
import { withRepoSkills } from './repo-skill-commands';
import { type BudgetBreach, exhaustedBudget, recordUsage } from './run-budget';
import { RunHeartbeat } from './run-heartbeat';
import { RunMonitor } from './run-monitor';
import { StatusCardPublisher } from './status-card-publisher';
import { attachmentsForTurn, withAttachments } from './turn-attachments';
import { checkpointWriter, type PreparedResume, prepareResume } from './turn-checkpoints';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';
import { openTurnSession } from './turn-platform-session';
import { TurnReplyStream } from './turn-reply-stream';

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
): Promise<boolean> {
  // A12: alive from the claim until the run is finished and stored (T2: through an outage too).
  const heartbeat = new RunHeartbeat(deps.store, deps.clock, deps.logger, claimed, deps.timings.heartbeatMs);
  heartbeat.start();
  try {
    if (loaded instanceof NotFoundError) throw loaded;
    return await executeClaimedRun(deps, claimed, loaded, signal);
  } finally {
    heartbeat.stop();
  }
}

async function executeClaimedRun(
  deps: TurnDeps,
  claimed: RunRecord,
  { context, stored }: LoadedTurn,
  signal: AbortSignal,
): Promise<boolean> {
  const log = deps.logger.child({ component: 'turn', runId: claimed.id });
  const { agent, conversation } = context;
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
  const breach = await exhaustedBudget(deps, context);
  if (breach !== null) {
    const message = budgetMessage(breach.budget, breach.spent, agent.name, 'start');
    log.info({ budget: breach.budget }, 'turn refused: budget used up');
    const refused = await finishRun(deps, context, { ok: false, error: message, interrupted: false });
    await refreshTriggerNote(deps, context, refused.run);
    await postSystemMessage(deps, conversation, message);
    return refused.laneHasMore;
  }

  const card = new StatusCardPublisher(
    platform,
    thread,
    agent,
    deps.timings.statusEditIntervalMs,
    log,
    deps.clock,
    claimed.id,
  );
  const cardRef = await card.open(claimed.statusCardRef);
  // P15: subscribed first, then the run read back where its card's ref is stored (one
  // transaction for both): a stop asked before is in what is read, one asked after is heard.
  const stop = await StopListener.open(deps.waits, claimed.id);
  let current: RunRecord | null;
  let reply: TurnReplyStream;
  try {
    // T3: with the card refs of turns storing theirs at the same time, in one transaction.
    current = await deps.turnWrites.storeCardRef(claimed.workspaceId, claimed.id, cardRef);
    await refreshTriggerNote(deps, context, claimed);
    // P14: the reply streams where the platform can; tool calls show there or on the card.
    reply = new TurnReplyStream(
      card,
      platform,
      thread,
      context,
      log,
      async () => (await stoppedByOf(deps, claimed.id, claimed.workspaceId)) !== null,
    );
  } catch (error) {
    stop.close();
    throw error;
  }
  // P15: the platform's own session (Slack's agent session) follows the turn until it ends.
  const session = openTurnSession(deps, platform, thread, context);
  try {
    return await runAndFinish(deps, context, {
      claimed,
      stored,
      signal,
      cardRef,
      card,
      reply,
      log,
      stop,
      current,
    });
  } finally {
    await session.end();
  }
}

/**
 * The turn from its runner's start to its end: the reply or the stop, the run stored, the wake
 * chain. Resolves to whether the lane may have another queued run.
 */
async function runAndFinish(
  deps: TurnDeps,
  context: TurnContext,
  turn: {
    claimed: RunRecord;
    stored: RunCheckpointRecord | null;
    signal: AbortSignal;
    cardRef: string | null;
    card: StatusCardPublisher;
    reply: TurnReplyStream;
    log: Logger;
    stop: StopListener;
    current: RunRecord | null;
  },
): Promise<boolean> {
  const { claimed, stored, signal, cardRef, card, reply, log, stop, current } = turn;
  const { agent, conversation } = context;
  let result: TurnResult;
  try {
    const resume = stored === null ? undefined : prepareResume(stored);
    if (resume !== undefined) log.info({ step: stored?.step }, 'turn resumes from its checkpoint');
    result = await runTurn(deps, context, reply, signal, { cardRef, resume, stop, current });
  } finally {
    stop.close();
  }
  log.info({ ok: result.ok }, 'turn finished');
  if (!result.ok && result.interrupted) {
    // The worker is shutting down: the run goes back to the queue and starts again elsewhere.
    await reply.abandon();
    await card.finish('stopped', 'Interrupted; it will start again');
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
    await card.finish('done', 'Done');
    posted = await postReply(deps, context, result.reply, reply);
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

async function runTurn(
  deps: TurnDeps,
  context: TurnContext,
  reply: TurnReplyStream,
  workerSignal: AbortSignal,
  durable: {
    cardRef: string | null;
    resume: PreparedResume | undefined;
    /** P15: the run's stop notifications, and the run as read when its card's ref was stored. */
    stop: StopListener;
    current: RunRecord | null;
  },
): Promise<TurnResult> {
  const { resume } = durable;
  const { run, agent } = context;
  const { card } = reply;
  const abort = new AbortController();
  const stop = () => abort.abort(workerSignal.reason);
  workerSignal.addEventListener('abort', stop, { once: true });
  // P15: a person's Stop, clicked in whichever process, aborts the turn: its runner, its tools
  // (their process groups are killed on abort) and any wait it is suspended in.
  let stoppedBy = null as string | null;
  const stopIfAsked = (current: RunRecord | null) => {
    const by = stopRequestOf(current);
    if (by === null || stoppedBy !== null) return;
    stoppedBy = by;
    deps.logger.info({ runId: run.id, stoppedBy: by }, 'turn stopped by a person');
    abort.abort(new Error(stoppedBySentence(by)));
  };
  const lookForStop = async () =>
    stopIfAsked(await deps.store.inWorkspace(run.workspaceId, (tx) => tx.runs.findById(run.id)));
  const onStopSignal = () => {
    lookForStop().catch((error: unknown) =>
      deps.logger.warn({ err: error, runId: run.id }, 'reading a stop request failed'),
    );
  };
  const settle = (result: TurnResult): TurnResult =>
    stoppedBy === null || result.ok
      ? result
      : { ok: false, error: stoppedBySentence(stoppedBy), interrupted: false, stoppedBy };
  let closeSteering = () => {};

  let liveness: RunLiveness = 'ok';
  const persistLiveness = (next: RunLiveness) => {
    liveness = next;
    deps.metrics?.livenessChanged(next);
    void deps.store
      .inWorkspace(run.workspaceId, (tx) => tx.runs.update(run.id, { liveness: next }))
      .catch((error: unknown) => deps.logger.warn({ err: error, runId: run.id }, 'liveness update failed'));
  };
  const monitor = new RunMonitor(
    agent.silenceTimeoutMinutes * 60_000,
    deps.timings.loopThreshold,
    persistLiveness,
  );
  monitor.start();
  let text = '';
  let breach: BudgetBreach | null = null;
  try {
    // Subscribed before the run was read (`durable.current`): a stop asked before is in it.
    stopIfAsked(durable.current);
    durable.stop.listen(onStopSignal);
    if (stoppedBy !== null) return settle({ ok: false, error: 'stopped', interrupted: true });
    const runner = deps.runners(agent);
    // P16: people's messages for this turn, announced from whichever process received them.
    const steering = runner.takesSteering === true ? await openSteeringFeed(deps, run) : undefined;
    closeSteering = () => steering?.close();
    const agentDir = deps.directory.agentDir(context.workspaceSlug, agent.name);
    // M9, G3: in a space with repositories the run works in its synced overlay, with git
    // pointed at the gateway by a per-run credential (released in `finally`, however it ends).
    const workspace =
      deps.workspaces === undefined
        ? null
        : await deps.workspaces.prepare({
            runId: run.id,
            workspaceSlug: context.workspaceSlug,
            agent,
            space: context.space,
            agentDir,
            // A6, A7: the card says which repo skill was left out, and why.
            onSkillRefused: (skill) => card.row(`✗ skill ${skill.name} left out: ${skill.refused}`),
          });
    const workingDir = workspace?.workingDir ?? agentDir;
    // P13: the message's files, fetched at the turn's start (a resumed turn fetches its images again).
    const attached = await attachmentsForTurn(deps, context, runner, workingDir, abort.signal);
    // T2: a resumed turn keeps the prompt it started with (the thread has moved on since).
    const composed =
      resume?.prompt ??
      composePrompt(
        withAttachments(await withRepoSkills(context.promptInput, context.trigger, workspace), attached),
      );
    // A9: the turn's tools, built from the space mode; every call passes the guardrails.
    const tools =
      deps.tools === undefined
        ? NO_TOOLS
        : deps.tools({
            runId: run.id,
            agent,
            space: context.space,
            conversation: context.conversation,
            workingDir,
            skills: context.skills,
            onWaiting: (waiting) => monitor.hold(waiting),
            workspace,
            ...(resume?.approval === undefined ? {} : { resumedApproval: resume.approval }),
            ...(resume?.awaited === undefined ? {} : { resumedWait: resume.awaited }),
          });
    for await (const event of runner.run({
      runId: run.id,
      agent,
      system: composed.system,
      prompt: composed.prompt,
      ...(attached === null || attached.images.length === 0 ? {} : { images: attached.images }),
      workingDir,
      ...(workspace === null ? {} : { env: workspace.env, linkedRoots: workspace.linkedRoots }),
      tools,
      signal: abort.signal,
      // T2: the built-in runners store the turn at each tool boundary (a CLI agent does not).
      checkpoint: checkpointWriter(deps, run, durable.cardRef, {
        system: composed.system,
        prompt: composed.prompt,
      }),
      ...(resume === undefined ? {} : { resumeFrom: resume.resumeFrom }),
      ...(steering === undefined ? {} : { steering }),
    })) {
      // O3: once a model call used a budget up, the turn ends before the next one (a call
      // that was the answer still ends the turn with it).
      if (breach !== null && event.type !== 'final' && event.type !== 'error') {
        const error = budgetMessage(breach.budget, breach.spent, agent.name, 'stop');
        return settle({ ok: false, error, interrupted: false, budget: breach });
      }
      if (event.type === 'usage') {
        await recordUsage(deps, context, event);
        breach = await exhaustedBudget(deps, context);
      }
      monitor.observe(event);
      deps.activity?.observe(run.id, event);
      reply.observe(event);
      if (event.type === 'text') text += event.delta;
      if (event.type === 'final') return { ok: true, reply: event.text || text };
      if (event.type === 'error') return settle({ ok: false, error: event.message, interrupted: false });
    }
    if (abort.signal.aborted) return settle({ ok: false, error: 'stopped', interrupted: true });
    return text.trim() === ''
      ? settle({ ok: false, error: 'the runner ended without a reply', interrupted: false })
      : { ok: true, reply: text };
  } catch (error) {
    if (abort.signal.aborted) return settle({ ok: false, error: 'stopped', interrupted: true });
    return settle({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      interrupted: false,
    });
  } finally {
    durable.stop.close();
    closeSteering();
    monitor.stop();
    deps.activity?.finish(run.id);
    if (deps.workspaces !== undefined) {
      // G3: the run's gateway credential ends with the run (the gateway also refuses it then).
      await deps.workspaces
        .release(run.id)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, runId: run.id }, 'releasing the run failed'),
        );
    }
    // X2: the run's egress proxy closes with its workspace.
    await deps.egress
      ?.release(run.id)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error, runId: run.id }, 'closing the egress proxy failed'),
      );
    workerSignal.removeEventListener('abort', stop);
    if (liveness !== 'ok') deps.logger.info({ runId: run.id, liveness }, 'run ended with liveness');
  }
}
