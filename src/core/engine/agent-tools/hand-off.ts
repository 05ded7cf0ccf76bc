import type { ConversationRecord, MessageRecord } from '../../model/conversation-records';
import type { AgentRecord, RunRecord } from '../../model/records';
import { conversationMarker } from '../../notes';
import type { StoreTx } from '../../ports/store';
import { checkHandoff, type HandoffCheck, type HandoffTool } from '../../tools/handoff-limits';
import { postNote } from '../cards/post-note';
import { queuedRun } from '../routing/queued-run';
import { type AgentToolContext, recordAwaits } from './agent-tool-context';
import { conversationAt, placeOf } from './hand-off-place';

export interface HandoffRequest {
  tool: HandoffTool;
  agent: string;
  text: string;
  /** A space by name: a new conversation there unless it is the caller's and the target is in it. */
  space?: string;
  /** delegate_task: always the caller's conversation (the child run works where people see it). */
  inCurrentConversation?: boolean;
  /**
   * T2, A9: the caller waits for the run it starts, until then (null: no end); recorded on its
   * checkpoint in the hand-off's own transaction, so a crash at any point after it leaves a
   * turn that waits on that run, never one that hands off twice.
   */
  awaitsUntil?: Date | null;
}

export type Handoff =
  | { ok: true; runId: string; conversationId: string; target: AgentRecord; where: string }
  | { ok: false; reason: string };

interface Planned {
  target: AgentRecord;
  conversation: ConversationRecord;
  created: { channelId: string } | null;
  note: MessageRecord;
  run: RunRecord;
  where: string;
}

/**
 * M23, N1–N4: the note that hands text to another agent, and the turn it starts. The target
 * works in the caller's conversation when it takes part in it (or for delegate_task), else in
 * a new conversation of a space it belongs to (or the named one), marked `via agent · "title"`
 * (N4). Depth and cycles are bounded like the wake chain (M20). Stored in one transaction;
 * posted and enqueued after it commits.
 */
export async function handOff(ctx: AgentToolContext, request: HandoffRequest): Promise<Handoff> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const planned = await deps.store.inWorkspace(workspaceId, (tx) => plan(ctx, tx, request));
  if (!planned.ok) return planned;
  const { target, conversation, note, run } = planned.value;
  const platform = deps.platforms.get(conversation.platform);
  let thread = conversation.threadId;
  try {
    if (planned.value.created !== null && platform !== undefined) {
      // N4: the new thread opens with the mark of the agent that created it.
      const marker = conversationMarker({ sessionTitle: turn.conversation.title, relayName: deps.relayName });
      const started = await platform.startThread(planned.value.created.channelId, {
        as: { kind: 'system' },
        content: { kind: 'text', text: marker },
      });
      thread = started.thread;
      await deps.store.inWorkspace(workspaceId, (tx) =>
        tx.conversations.setThreadId(conversation.id, started.thread),
      );
    }
    await postNote(
      deps,
      { workspaceId, platform: conversation.platform, threadId: thread },
      note,
      run,
      turn.agent,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await deps.store.inWorkspace(workspaceId, (tx) =>
      tx.runs.update(run.id, {
        status: 'failed',
        liveness: 'failed',
        error: reason,
        finishedAt: deps.clock.now(),
      }),
    );
    return { ok: false, reason: `${request.tool} failed: the note could not be posted (${reason}).` };
  }
  await deps.queue.enqueue({ id: run.id, data: { runId: run.id } });
  deps.logger.info(
    { component: 'tools', runId: turn.runId, tool: request.tool, target: target.name, started: run.id },
    'handed off to an agent',
  );
  return { ok: true, runId: run.id, conversationId: conversation.id, target, where: planned.value.where };
}

async function plan(
  ctx: AgentToolContext,
  tx: StoreTx,
  request: HandoffRequest,
): Promise<{ ok: true; value: Planned } | { ok: false; reason: string }> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const chosen = await targetOf(ctx, tx, request);
  if (!chosen.ok) return chosen;
  const { target, limits } = chosen;
  const place = await placeOf(ctx, tx, request, target);
  if (!place.ok) return place;
  const conversation = await conversationAt(ctx, tx, request, place, target);

  const note = await tx.messages.insert(workspaceId, {
    conversationId: conversation.id,
    authorKind: 'agent',
    authorAgentId: turn.agent.id,
    authorMemberId: null,
    text: request.text,
    mentions: { agents: [{ agentId: target.id, name: target.name }], members: [] },
    platformMessageRef: null,
    // N1, N2: the note names the conversation the sending agent runs in.
    note: {
      senderAgentId: turn.agent.id,
      senderRelay: null,
      sourceConversationId: turn.conversation.id,
      sourceTitle: turn.conversation.title,
      runId: null,
      foldState: 'auto',
    },
  });
  const run = await tx.runs.insert(
    queuedRun(
      {
        workspaceId,
        agentId: target.id,
        conversationId: conversation.id,
        triggerMessageId: note.id,
        createdAt: deps.clock.now(),
      },
      { by: 'agent', agentId: turn.agent.id, wakeChain: limits.chain, depth: limits.depth },
    ),
  );
  await tx.messages.linkNoteRun(note.id, run.id);
  if (request.awaitsUntil !== undefined) {
    await recordAwaits(tx, ctx, { kind: 'run', id: run.id, until: request.awaitsUntil });
  }
  const where =
    place.space === null
      ? 'this conversation'
      : `a new conversation in space ${place.space.name} ("${conversation.title}")`;
  return {
    ok: true,
    value: {
      target,
      conversation,
      created: place.space === null ? null : { channelId: place.channelId },
      note: { ...note, note: note.note && { ...note.note, runId: run.id } },
      run,
      where,
    },
  };
}

/** M20: the agent handed to, by name, and the chain and depth its turn gets; or the refusal. */
async function targetOf(
  ctx: AgentToolContext,
  tx: StoreTx,
  request: HandoffRequest,
): Promise<
  | { ok: true; target: AgentRecord; limits: Extract<HandoffCheck, { ok: true }> }
  | { ok: false; reason: string }
> {
  const { turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const caller = await tx.runs.findById(turn.runId);
  if (caller === null)
    return { ok: false, reason: `${request.tool} failed: this turn is no longer recorded.` };
  const agents = await tx.agents.list(workspaceId);
  const wanted = request.agent.trim().replace(/^@/, '').toLowerCase();
  const target = agents.find((a) => a.name.toLowerCase() === wanted);
  if (target === undefined) {
    return {
      ok: false,
      reason: `${request.tool} refused: there is no agent named "${request.agent}" in this workspace. Agents: ${agents.map((a) => a.name).join(', ')}.`,
    };
  }
  const nameOf = (id: string) => agents.find((a) => a.id === id)?.name ?? id;
  const limits = checkHandoff({
    tool: request.tool,
    chain: caller.wakeChain,
    depth: caller.depth,
    callerId: turn.agent.id,
    targetId: target.id,
    nameOf,
  });
  if (!limits.ok) return limits;
  return { ok: true, target, limits };
}

/**
 * T2, A9: the hand-off a resumed call had made (its run started before the restart), read back
 * as `handOff` returned it, so the call waits on that run instead of handing off again; the
 * wait is recorded on the checkpoint again (the resumed turn's boundary cleared it).
 */
export async function resumedHandOff(
  ctx: AgentToolContext,
  awaited: { id: string; until: Date | null },
): Promise<Handoff> {
  const { turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const runId = awaited.id;
  return ctx.deps.store.inWorkspace(workspaceId, async (tx): Promise<Handoff> => {
    const run = await tx.runs.findById(runId);
    const target = (await tx.agents.list(workspaceId)).find((a) => a.id === run?.agentId);
    if (run === null || target === undefined) return { ok: false, reason: 'the turn it waited for is gone' };
    await recordAwaits(tx, ctx, { kind: 'run', id: runId, until: awaited.until });
    if (run.conversationId === turn.conversation.id)
      return { ok: true, runId, conversationId: run.conversationId, target, where: 'this conversation' };
    const conversation = await tx.conversations.findById(run.conversationId);
    const space = (await tx.spaces.list(workspaceId)).find((s) => s.id === conversation?.spaceId);
    const where = `a new conversation in space ${space?.name ?? '?'} ("${conversation?.title ?? ''}")`;
    return { ok: true, runId, conversationId: run.conversationId, target, where };
  });
}
