import { AppError, NotFoundError } from '../errors';
import { canStartWork } from '../model/member';
import type { Platform } from '../model/platform';
import type { ChatEngine } from '../ports/chat-engine';
import type { ChatPlatform, InboundMessage } from '../ports/chat-platform';
import type { AskOutcome, McpCaller } from '../ports/member-tools';
import type { StoreTx } from '../ports/store';
import { type WaitSignals, waitTopics } from '../ports/wait-signals';
import { awaitSignal } from '../waits/await-signal';
import { DEFAULT_ASK_WAIT_MS, type McpChat, type MemberToolsDeps } from './member-tools-deps';
import { accountOn, findReachable, noAccountOn, reachableSpaces } from './reachable-spaces';

/** Where the turn is asked: the space's channel on a running platform, as the member. */
interface AskPlace {
  platform: ChatPlatform;
  channelId: string;
  workspace: InboundMessage['workspace'];
  senderId: string;
  agentName: string;
}

/**
 * E6: `ask_agent`: a turn in a space like a chat mention by the member. The question opens a
 * new thread in the space's channel whose first post names the member, the engine receives
 * the mention as the member's message (P8: checked again there), and the agent's reply is the
 * result. The wait is bounded; the request's abort ends the waiting, never the turn.
 */
export async function askAgent(
  deps: MemberToolsDeps,
  caller: McpCaller,
  request: { space: string; agent: string; prompt: string },
  signal: AbortSignal,
): Promise<AskOutcome> {
  const { member } = caller;
  // P8: a viewer reads along; asking an agent is starting work.
  if (!canStartWork(member.role)) {
    throw new AppError(
      `Your role (${member.role}) can read along but cannot start work, so you cannot ask an agent. An admin can change it.`,
      'forbidden',
    );
  }
  const prompt = request.prompt.trim();
  if (prompt === '')
    throw new AppError('The prompt is empty: say what the agent should do.', 'validation_failed');
  const chat = deps.chat();
  if (chat === null) {
    throw new AppError(
      'No chat platform runs in this Summon process, so there is no channel to ask in.',
      'unavailable',
    );
  }
  const place = await deps.store.inWorkspace(caller.workspace.id, (tx) =>
    askPlace(tx, chat.platforms, caller, request),
  );
  const posted = await place.platform.startThread(place.channelId, {
    as: { kind: 'system' },
    content: { kind: 'text', text: `@${member.nickname} via MCP: ${prompt}` },
  });
  const thread = await threadRef(place.platform, posted.thread);
  const runId = await receive(deps, chat.engine, place, posted, prompt);
  if (typeof runId !== 'string')
    return { kind: 'failed', agent: place.agentName, reason: runId.reason, thread };
  return waitForRun(
    deps,
    chat.signals,
    { workspaceId: caller.workspace.id, runId, agent: place.agentName, thread },
    signal,
  );
}

/** The space, the agent and the channel; refused with a sentence when one is missing. */
async function askPlace(
  tx: StoreTx,
  platforms: McpChat['platforms'],
  { workspace, member }: McpCaller,
  request: { space: string; agent: string },
): Promise<AskPlace> {
  const reach = findReachable(await reachableSpaces(tx, member), request.space);
  const agent = await tx.agents.findByName(workspace.id, request.agent.trim().replace(/^@/, ''));
  if (agent === null) {
    const names = (await tx.agents.list(workspace.id)).map((a) => a.name).join(', ') || 'none';
    throw new NotFoundError(`There is no agent "${request.agent}" (agents: ${names}).`);
  }
  const binding = reach.bindings.find((b) => platforms.has(b.platform));
  const platform = binding === undefined ? undefined : platforms.get(binding.platform);
  if (binding === undefined || platform === undefined) {
    throw new AppError(
      `Space "${reach.space.name}" has no channel on a chat platform this Summon runs, so there is nowhere to ask.`,
      'unavailable',
    );
  }
  const senderId = accountOn(member, binding.platform);
  if (senderId === null) throw new AppError(noAccountOn(member, binding.platform), 'forbidden');
  return {
    platform,
    channelId: binding.channelId,
    workspace: await workspaceRef(tx, workspace, binding.platform),
    senderId,
    agentName: agent.name,
  };
}

/** How the platform's messages name the workspace: its team or guild, or (the terminal) its slug. */
async function workspaceRef(
  tx: StoreTx,
  workspace: McpCaller['workspace'],
  platform: Platform,
): Promise<InboundMessage['workspace']> {
  // P19: GitHub's messages name the workspace by slug too (a repository is bound, no team).
  if (platform === 'terminal' || platform === 'github') return { slug: workspace.slug };
  const team = (await tx.platformBindings.listForWorkspace(workspace.id)).find(
    (b) => b.platform === platform,
  );
  return team === undefined ? { slug: workspace.slug } : { platform, externalId: team.externalId };
}

/** The mention, as the member's top-level message of the new thread; the run it queued, or why none. */
async function receive(
  deps: MemberToolsDeps,
  engine: ChatEngine,
  place: AskPlace,
  posted: { thread: string; messageRef: string },
  prompt: string,
): Promise<string | { reason: string }> {
  const outcome = await engine.receive({
    platform: place.platform.platform,
    eventId: `mcp-${deps.newId()}`,
    workspace: place.workspace,
    channelId: place.channelId,
    thread: posted.thread,
    topLevel: true,
    messageRef: posted.messageRef,
    senderId: place.senderId,
    text: `@${place.agentName} ${prompt}`,
    receivedAt: deps.clock.now(),
  });
  if (outcome.kind === 'refused') return { reason: outcome.reason };
  const runId = outcome.kind === 'accepted' ? outcome.runIds[0] : undefined;
  return runId ?? { reason: 'The message started no turn.' };
}

/** The thread as a person opens it: the platform's link where it has one, else its id. */
async function threadRef(platform: ChatPlatform, thread: string): Promise<string> {
  const link = await platform.threadLink?.(thread).catch(() => null);
  return link ?? thread;
}

/**
 * Waits for the run's end, the end of the wait, or the request going away (T1: no polling — the
 * run's end is notified in whichever process ran it, T5; the stored run stays the truth).
 */
async function waitForRun(
  deps: MemberToolsDeps,
  signals: WaitSignals,
  target: { workspaceId: string; runId: string; agent: string; thread: string },
  signal: AbortSignal,
): Promise<AskOutcome> {
  const { agent, thread } = target;
  const until = new Date(deps.clock.now().getTime() + (deps.askWaitMs ?? DEFAULT_ASK_WAIT_MS));
  const outcome = await awaitSignal(
    { signals, clock: deps.clock },
    {
      topic: waitTopics.run(target.runId),
      until,
      signal,
      check: () =>
        deps.store.inWorkspace(target.workspaceId, async (tx) => {
          const run = await tx.runs.findById(target.runId);
          if (run === null || (run.status !== 'succeeded' && run.status !== 'failed')) return null;
          const reply = run.replyMessageId === null ? null : await tx.messages.findById(run.replyMessageId);
          return { error: run.error, reply: reply?.text ?? null };
        }),
    },
  );
  if (outcome.state !== 'ready') return { kind: 'still-working', agent, thread };
  const { reply, error } = outcome.value;
  if (reply !== null) return { kind: 'replied', agent, reply, thread };
  return { kind: 'failed', agent, reason: error ?? 'The turn ended without a reply.', thread };
}
