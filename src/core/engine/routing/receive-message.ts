import { randomUUID } from 'node:crypto';
import { parsePersonMessage } from '../../mentions';
import type { MessageFields, MessageMentions } from '../../model/conversation-records';
import type { ReceiveOutcome } from '../../ports/chat-engine';
import type { ChatPlatform, InboundMessage } from '../../ports/chat-platform';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import { type AnsweredInThread, afterAnswerInThread, answerInThread } from '../agent-tools/answer-in-thread';
import type { EngineDeps } from '../engine-deps';
import type { RunJob } from '../run-job';
import { appHelp } from './app-help';
import { chooseResponders } from './choose-responders';
import { senderFrom } from './resolve-sender';
import { steerRunningTurn } from './steering';
import { wakeRun } from './wake-run';

const TITLE_LENGTH = 80;

/** What must happen after the transaction commits: never post or enqueue for a rolled-back change. */
export interface RoutedMessage {
  outcome: ReceiveOutcome;
  hints: string[];
  refusal: string | null;
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
export async function receiveMessage(deps: EngineDeps, message: InboundMessage): Promise<ReceiveOutcome> {
  const result = await deps.store.transaction((tx) => routeMessage(tx, deps, message));
  return afterRouting(deps, message, result);
}

/** What follows a committed routing: the refusal told, hints, a redrawn question card, runs enqueued. */
export async function afterRouting(
  deps: EngineDeps,
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
    for (const job of jobs) await wakeRun(deps, job);
    log.info(
      { conversationId: result.outcome.conversationId, runIds: result.outcome.runIds },
      'message accepted',
    );
  }
  return result.outcome;
}

/** P6, P8, M1–M12, P3: the routing of one message, inside the caller's transaction. */
export async function routeMessage(
  tx: StoreTx,
  deps: EngineDeps,
  message: InboundMessage,
): Promise<RoutedMessage> {
  // P6 (the event recorded once), and what routing reads: who sent it where, the workspace's
  // agents and members, the thread's conversation and the space's participants — asked together,
  // one round trip (T3); a duplicate's reads are simply not used.
  const [first, reads] = await Promise.all([
    tx.processedEvents.record(message.platform, message.eventId),
    tx.routingReads.read({
      platform: message.platform,
      workspace: message.workspace,
      channelId: message.channelId,
      thread: message.thread,
      senderId: message.senderId,
    }),
  ]);
  if (!first) return { outcome: { kind: 'duplicate' }, hints: [], refusal: null };
  const sender = senderFrom(reads);
  if (!sender.ok)
    return { outcome: { kind: 'refused', reason: sender.reason }, hints: [], refusal: sender.reason };
  const { workspace, space, member } = sender;
  const { agents, members } = reads;
  const parsed = parsePersonMessage(message.text, {
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    members: members.map((m) => ({ id: m.id, nickname: m.nickname })),
  });

  const existing = reads.conversation;
  // A conversation made here, in this transaction: no other has seen it, so it has no agent
  // message and no running turn to look for (two statements fewer for each new thread).
  const fresh = existing === null;
  const mentions: MessageMentions = {
    agents: parsed.agents.map(({ agent }) => ({ agentId: agent.id, name: agent.name })),
    // M11: a person's mention of a person starts nobody; it is kept for notification.
    members: parsed.members.map(({ member: m }) => ({ memberId: m.id, nickname: m.nickname })),
  };
  const messageFields = (conversationId: string): MessageFields => ({
    conversationId,
    authorKind: 'person' as const,
    authorAgentId: null,
    authorMemberId: member.id,
    text: message.text,
    mentions,
    platformMessageRef: message.messageRef,
    note: null,
    // P13: what was attached is recorded with the message; the turn fetches it when it starts.
    ...(message.attachments === undefined || message.attachments.length === 0
      ? {}
      : { attachments: message.attachments }),
  });
  // T3: the conversation (in a new thread) and the message are given their ids here and
  // inserted with the transaction's next statement (at the latest its commit): nothing reads
  // them back, so they cost no round trip of their own.
  const conversation = existing ?? { id: randomUUID(), ownerAgentId: null };
  if (existing === null) {
    await tx.conversations.insertOwed(workspace.id, {
      id: conversation.id,
      spaceId: space.id,
      platform: message.platform,
      threadId: message.thread,
      title: titleOf(parsed.text || message.text),
      ownerAgentId: null,
      createdByAgentId: null,
    });
  }
  const messageId = randomUUID();
  await tx.messages.insertOwed(workspace.id, { ...messageFields(conversation.id), id: messageId });

  // P12: the app's mention and nothing else: a short help, nobody starts, nothing is answered.
  const appAlone = message.summonsApp === true && parsed.agents.length === 0 && !hasWords(message.text);
  // N13: a reply that names no agent, in a thread where a question waits, answers it.
  if (!message.topLevel && parsed.agents.length === 0 && !appAlone) {
    const answered = await answerInThread(tx, deps, conversation.id, message.text, member);
    if (answered !== null) {
      return {
        outcome: { kind: 'accepted', conversationId: conversation.id, runIds: [] },
        hints: [],
        refusal: null,
        answered,
      };
    }
  }

  // M2: a mentioned agent that is not yet a participant joins the space. The list is read
  // again only after an addition (made here or by another transaction meanwhile): most
  // mentions name participants already there, and cost one statement.
  let participantRefs = reads.participants;
  let added = false;
  for (const { agent } of parsed.agents) {
    if (participantRefs.some((p) => p.kind === 'agent' && p.agentId === agent.id)) continue;
    await tx.spaces.addParticipant(space.id, { kind: 'agent', agentId: agent.id });
    added = true;
  }
  if (added) participantRefs = await tx.spaces.listParticipants(space.id);
  const byId = new Map(agents.map((a) => [a.id, a]));
  const participants = participantRefs.flatMap((p) => {
    const agent = p.kind === 'agent' ? byId.get(p.agentId) : undefined;
    return agent ? [{ id: agent.id, reportsToId: agent.reportsToId }] : [];
  });

  const responders = chooseResponders({
    mentionedAgentIds: parsed.agents.map(({ agent }) => agent.id),
    mentionOnly: parsed.isMentionOnly,
    dedicated: space.dedicated,
    topLevel: message.topLevel,
    summonsApp: message.summonsApp === true,
    lastAgentId: fresh ? null : await tx.messages.lastAgentAuthorId(conversation.id),
    ownerAgentId: conversation.ownerAgentId,
    participants,
  });

  // P12: the app's mention alone, or one no agent here answers (M3 finds none): a short help.
  if (message.summonsApp === true && parsed.agents.length === 0 && (appAlone || responders.length === 0)) {
    return {
      outcome: { kind: 'accepted', conversationId: conversation.id, runIds: [] },
      hints: [],
      refusal: null,
      help: appHelp(
        participants.flatMap((p) => byId.get(p.id)?.name ?? []),
        { alone: appAlone },
      ),
    };
  }

  // P16: one agent's running built-in turn takes the message at its next tool boundary.
  const steers = fresh
    ? null
    : await steerRunningTurn(tx, deps, {
        workspaceId: workspace.id,
        conversationId: conversation.id,
        messageId,
        whileRunning: space.whileRunning,
        mentionedAgentIds: parsed.agents.map(({ agent }) => agent.id),
        mentionOnly: parsed.isMentionOnly,
        responders,
        agents: byId,
      });
  if (steers !== null) {
    return {
      outcome: { kind: 'accepted', conversationId: conversation.id, runIds: [] },
      hints: parsed.hints.map((hint) => hint.message),
      refusal: null,
      steers,
    };
  }

  const runIds: string[] = [];
  const jobs: RunJob[] = [];
  for (const agentId of responders) {
    // T3: the run is given its id here and inserted with the commit (nothing reads it back).
    const runId = randomUUID();
    await tx.runs.insertOwed({
      id: runId,
      workspaceId: workspace.id,
      agentId,
      conversationId: conversation.id,
      triggerMessageId: messageId,
      status: 'queued',
      liveness: 'ok',
      wakeChain: [agentId],
      depth: 1, // M20: a person's message starts depth 1
      startedByMemberId: member.id,
      startedByAgentId: null,
      startedAt: null,
      finishedAt: null,
      lastEventAt: null,
      error: null,
      createdAt: deps.clock.now(),
    });
    runIds.push(runId);
    const lane = { workspaceId: workspace.id, agentId, conversationId: conversation.id, spaceId: space.id };
    jobs.push({ runId, lane });
  }
  return {
    outcome: { kind: 'accepted', conversationId: conversation.id, runIds },
    hints: parsed.hints.map((hint) => hint.message),
    refusal: null,
    jobs,
  };
}

/** Anything but whitespace and punctuation. */
const hasWords = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** M5: the sender is told which agent a prefix chose and which others matched. */
async function tellHint(
  platform: ChatPlatform | undefined,
  message: InboundMessage,
  hint: string,
): Promise<void> {
  await platform?.tellPrivately(message.thread, message.senderId, hint);
}
