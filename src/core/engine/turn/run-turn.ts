import type { PreparedAttachments } from '../../attachments/prepare-attachments';
import type { RunRecord } from '../../model/records';
import type { PreparedWorkspace } from '../../ports/run-workspace';
import type { Runner, SteeringFeed } from '../../ports/runner';
import { NO_TOOLS, type TurnTools } from '../../ports/turn-tools';
import { composePrompt } from '../../prompt';
import { budgetMessage } from '../../usage/budget';
import { openSteeringFeed } from '../routing/steering';
import type { StopListener } from '../stop/stop-listener';
import type { TurnResult } from './finish-turn';
import { withRepoSkills } from './repo-skill-commands';
import { type BudgetBreach, exhaustedBudget, recordUsage, type UsageEvent } from './run-budget';
import { type RunMonitor, watchLiveness } from './run-monitor';
import type { SignOfLife } from './sign-of-life';
import { attachmentsForTurn, withAttachments } from './turn-attachments';
import { type CheckpointPrompt, checkpointWriter, type PreparedResume } from './turn-checkpoints';
import type { TurnContext } from './turn-context';
import type { TurnDeps } from './turn-deps';
import type { TurnReplyStream } from './turn-reply-stream';
import { TurnStop } from './turn-stop';

/** What a turn runs with, besides its context: its checkpoint, its stop and its run as read. */
export interface DurableTurn {
  /** The status card's ref once the platform took it (P7: the turn does not wait for it). */
  cardRef: () => string | null;
  resume: PreparedResume | undefined;
  /** P15: the run's stop notifications, and the run as read when its card's ref was stored. */
  stop: StopListener;
  current: RunRecord | null;
  /** P9: the turn's sign of life; its opening checkpoint waits for it (T2). */
  sign?: SignOfLife;
}

/** What the runner of a turn is started with (`prepareRunner`). */
interface PreparedRunner {
  runner: Runner;
  workspace: PreparedWorkspace | null;
  workingDir: string;
  attached: PreparedAttachments | null;
  composed: CheckpointPrompt;
  tools: TurnTools;
  steering: (SteeringFeed & { close(): void }) | undefined;
}

const STOPPED: TurnResult = { ok: false, error: 'stopped', interrupted: true };

/**
 * The turn from its runner's start to its end, in three steps: its runner prepared, its events
 * streamed, what it held released. `workerSignal` aborts when the worker shuts down; a person's
 * Stop aborts it too (P15, `TurnStop`). Never rejects: a failure is a failed result.
 */
export async function runTurn(
  deps: TurnDeps,
  context: TurnContext,
  reply: TurnReplyStream,
  workerSignal: AbortSignal,
  durable: DurableTurn,
): Promise<TurnResult> {
  const { run, agent } = context;
  const abort = new AbortController();
  const onWorkerAbort = () => abort.abort(workerSignal.reason);
  workerSignal.addEventListener('abort', onWorkerAbort, { once: true });
  const stop = new TurnStop(deps, run, abort);
  const opened: { steering?: { close(): void } | undefined } = {};
  const watch = watchLiveness(deps, run, agent);
  // O5: the console shows the turn's card while its runner runs here (until `releaseTurn`).
  deps.liveCards?.open(run.id, run.workspaceId);
  try {
    // Subscribed before the run was read (`durable.current`): a stop asked before is in it.
    stop.check(durable.current);
    durable.stop.listen(() => stop.heard());
    if (stop.asked) return stop.settle(STOPPED);
    const prepared = await prepareRunner(deps, context, reply, watch.monitor, abort.signal, durable, opened);
    return await streamTurn(deps, context, reply, prepared, watch.monitor, abort.signal, durable, stop);
  } catch (error) {
    if (abort.signal.aborted) return stop.settle(STOPPED);
    return stop.settle({
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      interrupted: false,
    });
  } finally {
    durable.stop.close();
    opened.steering?.close();
    await releaseTurn(deps, run.id, watch.monitor);
    workerSignal.removeEventListener('abort', onWorkerAbort);
    const liveness = watch.liveness();
    if (liveness !== 'ok') deps.logger.info({ runId: run.id, liveness }, 'run ended with liveness');
  }
}

/**
 * The runner, its working folder, the message's files, the prompt and the tools. `opened`
 * keeps the steering feed as soon as it is open, for `runTurn` to close however the turn ends.
 */
async function prepareRunner(
  deps: TurnDeps,
  context: TurnContext,
  reply: TurnReplyStream,
  monitor: RunMonitor,
  signal: AbortSignal,
  durable: DurableTurn,
  opened: { steering?: { close(): void } | undefined },
): Promise<PreparedRunner> {
  const { run, agent } = context;
  const { resume } = durable;
  const runner = deps.runners(agent);
  // P16: people's messages for this turn, announced from whichever process received them.
  const steering = runner.takesSteering === true ? await openSteeringFeed(deps, run) : undefined;
  opened.steering = steering;
  const agentDir = deps.directory.agentDir(context.workspaceSlug, agent.name);
  // M9, G3: in a space with repositories the run works in its synced overlay, with git
  // pointed at the gateway by a per-run credential (released by `releaseTurn`, however it ends).
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
          onSkillRefused: (skill) => reply.card.row(`✗ skill ${skill.name} left out: ${skill.refused}`),
        });
  const workingDir = workspace?.workingDir ?? agentDir;
  // P13: the message's files, fetched at the turn's start (a resumed turn fetches its images again).
  const attached = await attachmentsForTurn(deps, context, runner, workingDir, signal);
  // T2: a resumed turn keeps the prompt it started with (the thread has moved on since).
  const composed =
    resume?.prompt ??
    composePrompt(
      withAttachments(await withRepoSkills(context.promptInput, context.trigger, workspace), attached),
    );
  // A9: the turn's tools, built from the space mode; every call passes the guardrails.
  // E1: the MCP servers' tools are listed once, here; one that is unavailable is a card row.
  const tools =
    deps.tools === undefined
      ? NO_TOOLS
      : await deps.tools({
          runId: run.id,
          agent,
          space: context.space,
          conversation: context.conversation,
          workingDir,
          skills: context.skills,
          // T2, A9: the runners that checkpoint are the built-in loops, which offer tools to a model;
          // E2: a CLI agent that reaches Summon's MCP endpoint is offered the MCP tools there.
          modelTools: runner.checkpoints === true || runner.mcpThroughEndpoint?.(agent) === true,
          // T3: read with the claim, so listing them costs the turn no transaction of its own.
          mcpServers: context.mcpServers,
          memberId: context.trigger?.authorMemberId ?? null,
          signal,
          cardRow: (line) => reply.card.row(line),
          onWaiting: (waiting) => monitor.hold(waiting),
          workspace,
          ...(resume?.approval === undefined ? {} : { resumedApproval: resume.approval }),
          ...(resume?.awaited === undefined ? {} : { resumedWait: resume.awaited }),
        });
  return { runner, workspace, workingDir, attached, composed, tools, steering };
}

/** The runner's events, to the turn's end: its reply, its error, or a budget used up (O3). */
async function streamTurn(
  deps: TurnDeps,
  context: TurnContext,
  reply: TurnReplyStream,
  { runner, workspace, workingDir, attached, composed, tools, steering }: PreparedRunner,
  monitor: RunMonitor,
  signal: AbortSignal,
  durable: DurableTurn,
  stop: TurnStop,
): Promise<TurnResult> {
  const { run, agent } = context;
  const { resume } = durable;
  let text = '';
  let breach: BudgetBreach | null = null;
  // O3: a model call's usage is stored when the next event comes; the answer's own goes with
  // the run's end (`finishRun`), not in a transaction of its own.
  let unrecorded: UsageEvent | null = null;
  const checkpoints = checkpointWriter(
    deps,
    run,
    durable.cardRef,
    { system: composed.system, prompt: composed.prompt },
    durable.sign,
  );
  const record = async (): Promise<BudgetBreach | null> => {
    const usage = unrecorded;
    unrecorded = null;
    if (usage === null) return null;
    await recordUsage(deps, context, usage);
    return exhaustedBudget(deps, context);
  };
  try {
    for await (const event of runner.run({
      runId: run.id,
      agent,
      system: composed.system,
      prompt: composed.prompt,
      ...(attached === null || attached.images.length === 0 ? {} : { images: attached.images }),
      workingDir,
      ...(workspace === null ? {} : { env: workspace.env, linkedRoots: workspace.linkedRoots }),
      tools,
      signal,
      // T2: the built-in runners store the turn at each tool boundary (a CLI agent does not).
      checkpoint: (state) => checkpoints.save(state),
      ...(resume === undefined ? {} : { resumeFrom: resume.resumeFrom }),
      ...(steering === undefined ? {} : { steering }),
    })) {
      // O3: only the event after a call's usage has something to store; the others are not awaited.
      if (unrecorded !== null && event.type !== 'final') breach = (await record()) ?? breach;
      // O3: once a model call used a budget up, the turn ends before the next one (a call
      // that was the answer still ends the turn with it).
      if (breach !== null && event.type !== 'final' && event.type !== 'error') {
        const error = budgetMessage(breach.budget, breach.spent, agent.name, 'stop');
        return stop.settle({ ok: false, error, interrupted: false, budget: breach });
      }
      if (event.type === 'usage') unrecorded = event;
      monitor.observe(event);
      deps.activity?.observe(run.id, event);
      reply.observe(event);
      if (event.type === 'text') text += event.delta;
      if (event.type === 'final') {
        const usage = unrecorded;
        unrecorded = null;
        return { ok: true, reply: event.text || text, ...(usage === null ? {} : { usage }) };
      }
      if (event.type === 'error') return stop.settle({ ok: false, error: event.message, interrupted: false });
    }
  } finally {
    // T2: no checkpoint is written after the turn's end, which removes it.
    await checkpoints.settled().catch(() => {});
    // A turn that ended otherwise still has its model calls' usage stored (O3).
    await record().catch((error: unknown) =>
      deps.logger.warn({ err: error, runId: run.id }, 'storing a model call’s usage failed'),
    );
  }
  if (signal.aborted) return stop.settle(STOPPED);
  return text.trim() === ''
    ? stop.settle({ ok: false, error: 'the runner ended without a reply', interrupted: false })
    : { ok: true, reply: text };
}

/**
 * What the turn held, released however it ended: its liveness watch, its presence (A13) and
 * live card (O5), its gateway credential (G3: the gateway also refuses it once the run ends)
 * and its egress proxy (X2, closed with its workspace). A failed release is logged.
 */
async function releaseTurn(deps: TurnDeps, runId: string, monitor: RunMonitor): Promise<void> {
  monitor.stop();
  deps.activity?.finish(runId);
  deps.liveCards?.close(runId);
  if (deps.workspaces !== undefined) {
    await deps.workspaces
      .release(runId)
      .catch((error: unknown) => deps.logger.warn({ err: error, runId }, 'releasing the run failed'));
  }
  await deps.egress
    ?.release(runId)
    .catch((error: unknown) => deps.logger.warn({ err: error, runId }, 'closing the egress proxy failed'));
}
