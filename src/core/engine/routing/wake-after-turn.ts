import { parseAgentReply } from '../../mentions';
import type { RunRecord } from '../../model/records';
import { planWakes } from '../../wake';
import { postNote } from '../cards/post-note';
import { postSystemMessage } from '../cards/system-message';
import type { EngineDeps } from '../engine-deps';
import type { TurnContext } from '../turn/turn-context';
import { wakeRun } from './wake-run';

/**
 * M14–M22: after a clean turn, the agents its reply names are woken in the same conversation,
 * each with the reply delivered as a note (N1); every rejected wake posts one system message
 * (M21). Runs are stored before they are enqueued.
 */
export async function wakeAfterTurn(deps: EngineDeps, context: TurnContext, reply: string): Promise<void> {
  const { run, agent, agents, conversation } = context;
  const parsed = parseAgentReply(reply, {
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    selfId: agent.id,
  });
  if (parsed.agents.length === 0 && parsed.ambiguous.length === 0) return;

  const nameOf = new Map(agents.map((a) => [a.id, a.name]));
  const plan = await planWakes(
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

  const started = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    const created: { note: Awaited<ReturnType<typeof tx.messages.insert>>; run: RunRecord }[] = [];
    for (const wake of plan.wakes) {
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
      const woken = await tx.runs.insert({
        workspaceId: run.workspaceId,
        agentId: wake.agentId,
        conversationId: conversation.id,
        triggerMessageId: note.id,
        status: 'queued',
        liveness: 'ok',
        wakeChain: wake.chain,
        depth: wake.depth,
        startedByMemberId: null,
        startedByAgentId: agent.id,
        startedAt: null,
        finishedAt: null,
        lastEventAt: null,
        error: null,
        createdAt: deps.clock.now(),
      });
      await tx.messages.linkNoteRun(note.id, woken.id);
      created.push({ note: { ...note, note: note.note && { ...note.note, runId: woken.id } }, run: woken });
    }
    return created;
  });

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
