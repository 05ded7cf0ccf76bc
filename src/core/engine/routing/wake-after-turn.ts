import { parseAgentReply } from '../../mentions';
import type { MessageRecord } from '../../model/conversation-records';
import type { RunRecord } from '../../model/records';
import { type PlannedWake, planWakes, type WakePlan } from '../../wake';
import { postNote } from '../cards/post-note';
import { postSystemMessage } from '../cards/system-message';
import type { TurnContext } from '../turn/turn-context';
import { queuedRun } from './queued-run';
import type { WakeAfterTurnDeps } from './routing-deps';
import { wakeRun } from './wake-run';

/**
 * M14–M22: after a clean turn, the agents its reply names are woken in the same conversation,
 * each with the reply delivered as a note (N1); every rejected wake posts one system message
 * (M21). Runs are stored before they are enqueued.
 */
export async function wakeAfterTurn(
  deps: WakeAfterTurnDeps,
  context: TurnContext,
  reply: string,
): Promise<void> {
  const { agent, conversation } = context;
  const plan = await planReplyWakes(deps, context, reply);
  if (plan === null) return;
  const started = await storeWakes(deps, context, reply, plan.wakes);
  for (const { note, run: woken } of started) {
    await postNote(deps, conversation, note, woken, agent);
    // T3: its lane is known, so it starts here when a slot is free (`wakeRun`), else is enqueued.
    const lane = {
      workspaceId: woken.workspaceId,
      agentId: woken.agentId,
      conversationId: woken.conversationId,
      spaceId: conversation.spaceId,
    };
    await wakeRun(deps, { runId: woken.id, lane });
  }
  for (const rejection of plan.rejections) {
    await postSystemMessage(deps, conversation, rejection.message);
  }
}

/** M15, M19–M22: whom the reply wakes and which wakes are refused; null when it names nobody. */
async function planReplyWakes(
  deps: Pick<WakeAfterTurnDeps, 'clock' | 'rateLimiter'>,
  context: TurnContext,
  reply: string,
): Promise<WakePlan | null> {
  const { run, agent, agents } = context;
  const parsed = parseAgentReply(reply, {
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    selfId: agent.id,
  });
  if (parsed.agents.length === 0 && parsed.ambiguous.length === 0) return null;
  const nameOf = new Map(agents.map((a) => [a.id, a.name]));
  return planWakes(
    {
      outcome: 'succeeded',
      replier: { agentId: agent.id, name: agent.name },
      chain: run.wakeChain,
      depth: run.depth,
      mentions: {
        agents: parsed.agents.map(({ agent: a }) => ({ agentId: a.id, name: a.name })),
        ambiguous: parsed.ambiguous.map((a) => a.token),
      },
      workspaceId: run.workspaceId,
      now: deps.clock.now(),
      agentName: (id) => nameOf.get(id),
    },
    deps.rateLimiter,
  );
}

/**
 * M2, N1: in one transaction, each woken agent joins the space and gets the reply as a note
 * (linked to its run) and a queued run, started by the replying agent with the planned chain.
 */
function storeWakes(
  deps: Pick<WakeAfterTurnDeps, 'store' | 'clock'>,
  context: TurnContext,
  reply: string,
  wakes: readonly PlannedWake[],
): Promise<{ note: MessageRecord; run: RunRecord }[]> {
  const { run, agent, conversation } = context;
  return deps.store.inWorkspace(run.workspaceId, async (tx) => {
    const created: { note: MessageRecord; run: RunRecord }[] = [];
    for (const wake of wakes) {
      await tx.spaces.addParticipant(conversation.spaceId, { kind: 'agent', agentId: wake.agentId });
      const note = await tx.messages.insert(run.workspaceId, {
        conversationId: conversation.id,
        authorKind: 'agent',
        authorAgentId: agent.id,
        authorMemberId: null,
        text: reply,
        mentions: { agents: [{ agentId: wake.agentId, name: wake.name }], members: [] },
        platformMessageRef: null,
        note: {
          senderAgentId: agent.id,
          senderRelay: null,
          sourceConversationId: conversation.id,
          sourceTitle: conversation.title,
          runId: null,
          foldState: 'auto',
        },
      });
      const woken = await tx.runs.insert(
        queuedRun(
          {
            workspaceId: run.workspaceId,
            agentId: wake.agentId,
            conversationId: conversation.id,
            triggerMessageId: note.id,
            createdAt: deps.clock.now(),
          },
          { by: 'agent', agentId: agent.id, wakeChain: wake.chain, depth: wake.depth },
        ),
      );
      await tx.messages.linkNoteRun(note.id, woken.id);
      created.push({ note: { ...note, note: note.note && { ...note.note, runId: woken.id } }, run: woken });
    }
    return created;
  });
}
