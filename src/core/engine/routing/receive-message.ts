import type { ReceiveOutcome } from '../../ports/chat-engine';
import type { ChatPlatform, InboundMessage } from '../../ports/chat-platform';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import { type AnsweredInThread, afterAnswerInThread, answerInThread } from '../agent-tools/answer-in-thread';
import type { RunJob } from '../run-job';
import { reportQueued } from '../turn-checks-hooks';
import { appAlone, chooseForMessage } from './choose-for-message';
import { queueResponders } from './queue-responders';
import { mentionsIn, recordAndRead, storeMessage } from './record-message';
import { resolveSender } from './resolve-sender';
import type { AfterRoutingDeps, ReceiveDeps, RouteDeps } from './routing-deps';
import { steerRunningTurn } from './steering';
import { wakeRun } from './wake-run';

/** P24: how many refused people a process remembers having told (then it starts over). */
const TOLD_LIMIT = 10_000;

/** What must happen after the transaction commits: never post or enqueue for a rolled-back change. */
export interface RoutedMessage {
  outcome: ReceiveOutcome;
  hints: string[];
  refusal: string | null;
  /** P24: the refusal is told only to the sender, once (someone no listed group admits). */
  refusalPrivately?: boolean;
  /** N13: the message answered a question card, whose card is redrawn after the commit. */
  answered?: AnsweredInThread;
  /** P12: the app's mention alone is answered with a short help, posted in the thread. */
  help?: string;
  /** P16: the message joins this running turn at its next tool boundary (announced after the commit). */
  steers?: string;
  /** The queued runs' jobs, with their lanes (the outcome's `runIds`, in order). */
  jobs?: RunJob[];
}

/**
 * A person's message: recorded once (P6), resolved to a member (P8), stored, routed (M1–M12,
 * P3) and turned into queued runs, all in one transaction; only then are the runs enqueued.
 * A repeat of a delivery that was never processed is processed: its event id is recorded in
 * the same transaction as the work, so a failure rolls both back. (T4: the front ends' inbox
 * routes each stored event with `routeMessage` inside its own transaction, then `afterRouting`.)
 */
export async function receiveMessage(deps: ReceiveDeps, message: InboundMessage): Promise<ReceiveOutcome> {
  let used: StoreTx | null = null;
  const result = await deps.store
    .transaction((tx) => {
      used = tx;
      return routeMessage(tx, deps, message);
    })
    .catch((error: unknown) => {
      // T3: the slots held for its runs (a new thread's, claimed with it) go back now.
      if (used !== null) deps.localLanes?.releaseHolds(used);
      throw error;
    });
  return afterRouting(deps, message, result);
}

/** What follows a committed routing: the refusal told, hints, a redrawn question card, runs enqueued. */
export async function afterRouting(
  deps: AfterRoutingDeps,
  message: InboundMessage,
  result: RoutedMessage,
): Promise<ReceiveOutcome> {
  const log = deps.logger.child({
    component: 'engine',
    platform: message.platform,
    eventId: message.eventId,
  });
  const platform = deps.platforms.get(message.platform);

  if (result.refusal !== null) {
    deps.metrics?.eventRefused(message.platform);
    log.info({ reason: result.refusal }, 'message refused');
    if (result.refusalPrivately === true) {
      await tellRefusalOnce(deps, platform, message, result.refusal);
      return result.outcome;
    }
    // The refusal stands even when it cannot be shown (P7: a channel no workspace owns is refused by the outbox).
    await platform
      ?.post(message.thread, { as: { kind: 'system' }, content: { kind: 'text', text: result.refusal } })
      .catch((error: unknown) =>
        log.warn({ reason: result.refusal, err: String(error) }, 'the refusal could not be posted'),
      );
    return result.outcome;
  }
  if (result.outcome.kind === 'duplicate') {
    deps.metrics?.eventDeduplicated(message.platform);
    log.info({}, 'duplicate delivery ignored');
    return result.outcome;
  }
  for (const hint of result.hints) await tellHint(platform, message, hint);
  if (result.help !== undefined)
    await platform
      ?.post(message.thread, { as: { kind: 'system' }, content: { kind: 'text', text: result.help } })
      .catch((error: unknown) => log.warn({ err: String(error) }, 'the help could not be posted'));
  if (result.answered !== undefined) await afterAnswerInThread(deps, message, result.answered);
  if (result.steers !== undefined) {
    await deps.waits.notify(waitTopics.steering(result.steers));
    log.info({ runId: result.steers }, 'message steers a running turn');
  }
  if (result.outcome.kind === 'accepted') {
    const jobs = result.jobs ?? result.outcome.runIds.map((runId) => ({ runId }));
    // T3: started here when this process runs turns and has a slot free, else enqueued.
    // P21: a turn on a pull request shows as a queued check first.
    await reportQueued(deps, message, jobs);
    for (const job of jobs) await wakeRun(deps, job);
    log.info(
      { conversationId: result.outcome.conversationId, runIds: result.outcome.runIds },
      'message accepted',
    );
  }
  return result.outcome;
}

/**
 * P6, P8, M1–M12, N13, P12, P16, P3: the routing of one message, inside the caller's
 * transaction, in steps: recorded once and read (one round trip, T3), its sender resolved, the
 * message stored; then it answers a waiting question, or its responders are chosen and it
 * steers a running turn or queues their runs.
 */
export async function routeMessage(
  tx: StoreTx,
  deps: RouteDeps,
  message: InboundMessage,
): Promise<RoutedMessage> {
  const reads = await recordAndRead(tx, message);
  if (reads === null) return { outcome: { kind: 'duplicate' }, hints: [], refusal: null };
  const sender = await resolveSender(tx, deps.platforms, message, reads);
  if (!sender.ok) {
    const refused = {
      outcome: { kind: 'refused' as const, reason: sender.reason },
      hints: [],
      refusal: sender.reason,
    };
    return sender.privately === true ? { ...refused, refusalPrivately: true } : refused;
  }
  const { workspace, space, member } = sender;
  const parsed = mentionsIn(message.text, reads);
  const place = { workspace, space, member, existing: reads.conversation };
  const stored = await storeMessage(tx, message, place, parsed);
  const conversationId = stored.conversation.id;
  const accepted = (rest: Partial<RoutedMessage>): RoutedMessage => ({
    outcome: { kind: 'accepted', conversationId, runIds: [] },
    hints: [],
    refusal: null,
    ...rest,
  });

  // N13: a reply that names no agent, in a thread where a question waits, answers it.
  if (!message.topLevel && parsed.agents.length === 0 && !appAlone(message, parsed)) {
    // P24: the answer names who gave it: a member record this message made is read back first.
    const answerer = sender.readBack === undefined ? member : await sender.readBack();
    const answered = await answerInThread(tx, deps, conversationId, message.text, answerer);
    if (answered !== null) return accepted({ answered });
  }
  const choice = await chooseForMessage(tx, { message, parsed, space, reads, stored });
  if (choice.kind === 'help') return accepted({ help: choice.help });

  const hints = parsed.hints.map((hint) => hint.message);
  // P16: one agent's running built-in turn takes the message at its next tool boundary.
  const steers = stored.fresh
    ? null
    : await steerRunningTurn(tx, deps, {
        workspaceId: workspace.id,
        conversationId,
        messageId: stored.messageId,
        whileRunning: space.whileRunning,
        mentionedAgentIds: parsed.agents.map(({ agent }) => agent.id),
        mentionOnly: parsed.isMentionOnly,
        responders: choice.responders,
        agents: choice.agents,
      });
  if (steers !== null) return accepted({ hints, steers });

  const trigger = {
    workspaceId: workspace.id,
    spaceId: space.id,
    conversationId,
    messageId: stored.messageId,
    memberId: member.id,
    fresh: stored.fresh,
  };
  const jobs = await queueResponders(tx, deps, trigger, choice.responders);
  return {
    outcome: { kind: 'accepted', conversationId, runIds: jobs.map((job) => job.runId) },
    hints,
    refusal: null,
    jobs,
  };
}

/** P24, P5: told privately and once per person (a stranger writing again is not told again). */
async function tellRefusalOnce(
  deps: AfterRoutingDeps,
  platform: ChatPlatform | undefined,
  message: InboundMessage,
  refusal: string,
): Promise<void> {
  const key = JSON.stringify([message.platform, message.workspace, message.senderId]);
  const told = deps.accessTold;
  if (told?.has(key) === true) return;
  if (told !== undefined && told.size >= TOLD_LIMIT) told.clear();
  told?.add(key);
  await platform
    ?.tellPrivately(message.thread, message.senderId, refusal)
    .catch((error: unknown) =>
      deps.logger.warn({ err: String(error), eventId: message.eventId }, 'the refusal could not be told'),
    );
}

/** M5: the sender is told which agent a prefix chose and which others matched. */
async function tellHint(
  platform: ChatPlatform | undefined,
  message: InboundMessage,
  hint: string,
): Promise<void> {
  await platform?.tellPrivately(message.thread, message.senderId, hint);
}
