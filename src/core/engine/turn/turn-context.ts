import { NotFoundError } from '../../errors';
import { parsePersonMessage } from '../../mentions';
import type { ConversationRecord, MessageRecord } from '../../model/conversation-records';
import type { McpServerSpec } from '../../model/mcp/mcp-server';
import type { AgentRecord, MemberRecord, RunRecord, SkillRecord, SpaceRecord } from '../../model/records';
import type { Budget } from '../../model/usage/budget';
import type { TurnReads } from '../../ports/turn-reads';
import type { HistoryMessage, PromptInput } from '../../prompt';
import { loadSkillCommands } from '../../prompt/skill-commands';

/** Everything one turn reads from the store, loaded in one workspace-scoped transaction. */
export interface TurnContext {
  run: RunRecord;
  workspaceSlug: string;
  /** O3: the workspace's budgets as the run started. */
  budgets: Budget[];
  agent: AgentRecord;
  agents: AgentRecord[];
  /** P8: the members the turn names (`TurnReads.members`), not the whole workspace. */
  members: MemberRecord[];
  conversation: ConversationRecord;
  space: SpaceRecord;
  trigger: MessageRecord | null;
  /** A5: the skills linked into the agent's folder, with their bodies (read_skill). */
  skills: SkillRecord[];
  /** E1: the MCP servers of the agent and the space, read with the rest (T3). */
  mcpServers: McpServerSpec[];
  promptInput: PromptInput;
}

/** O6: what an operator follows a turn by, on each of its lines ("turn finished" its one at info). */
export function turnLogBindings({ run, agent, conversation }: TurnContext): Record<string, unknown> {
  const { id: conversationId, platform } = conversation;
  return { component: 'turn', runId: run.id, agent: agent.name, conversationId, platform };
}

/**
 * A claimed run's context from what its transaction read (`tx.turnReads`, one round trip). A
 * thing the turn needs that is gone is a NotFoundError.
 */
export function turnContextFrom(run: RunRecord, reads: TurnReads): TurnContext {
  const { workspace, conversation, agents, members, recent, participants } = reads;
  if (workspace === null) throw new NotFoundError(`workspace ${run.workspaceId} of run ${run.id} is gone`);
  if (conversation === null)
    throw new NotFoundError(`conversation ${run.conversationId} of run ${run.id} is gone`);
  const agent = agents.find((a) => a.id === run.agentId);
  if (agent === undefined) throw new NotFoundError(`agent ${run.agentId} of run ${run.id} is gone`);
  const space = reads.space;
  if (space === null || space.id !== conversation.spaceId)
    throw new NotFoundError(`space of conversation ${conversation.id} is gone`);
  const trigger = run.triggerMessageId === null ? null : reads.trigger;
  const workspaceSkills = reads.skills;
  const skills = workspaceSkills.filter((s) => agent.skills.includes(s.name));

  const agentName = new Map(agents.map((a) => [a.id, a.name]));
  const memberById = new Map(members.map((m) => [m.id, m]));
  const history: HistoryMessage[] = recent
    .filter((message) => message.id !== trigger?.id)
    .map((message) => ({
      author: authorOf(message, agentName, memberById),
      text: message.text,
      isNote: message.note !== null,
      at: message.createdAt,
    }));

  const prompt = promptText(trigger, agents, members);
  // A5: `/skill:<name>` in a person's message loads that skill's body for this turn.
  const loadedSkills =
    trigger?.authorKind === 'person' ? loadSkillCommands(trigger.text, workspaceSkills) : [];
  const promptInput: PromptInput = {
    agent,
    skills,
    space,
    roster: rosterOf(participants, agents, agentName, memberById),
    summoner: summonerOf(run, trigger, agentName, memberById),
    history,
    prompt,
    ...(loadedSkills.length > 0 ? { loadedSkills } : {}),
    ...noteOf(trigger, agentName),
  };
  return {
    run,
    workspaceSlug: workspace.slug,
    budgets: workspace.budgets,
    agent,
    agents,
    members,
    conversation,
    space,
    trigger,
    skills,
    mcpServers: reads.mcpServers,
    promptInput,
  };
}

type Roster = PromptInput['roster'];

/** The conversation's participants as the prompt names them: agents with their place, people with their role. */
function rosterOf(
  participants: TurnReads['participants'],
  agents: AgentRecord[],
  agentName: Map<string, string>,
  memberById: Map<string, MemberRecord>,
): Roster {
  return {
    agents: participants.flatMap((p) => {
      const a = p.kind === 'agent' ? agents.find((x) => x.id === p.agentId) : undefined;
      return a
        ? [
            {
              name: a.name,
              title: a.title,
              reportsTo: a.reportsToId ? (agentName.get(a.reportsToId) ?? null) : null,
            },
          ]
        : [];
    }),
    people: participants.flatMap((p) => {
      const m = p.kind === 'member' ? memberById.get(p.memberId) : undefined;
      return m ? [{ nickname: m.nickname, role: m.role }] : [];
    }),
  };
}

/** Who started the turn: an agent of a paired relay (R2), an agent here, or a person. */
function summonerOf(
  run: RunRecord,
  trigger: MessageRecord | null,
  agentName: Map<string, string>,
  memberById: Map<string, MemberRecord>,
): PromptInput['summoner'] {
  const remote = trigger?.note?.remote;
  if (remote !== undefined) {
    return {
      kind: 'agent',
      name: `${remote.agentName} on relay ${trigger?.note?.senderRelay ?? 'a paired relay'}`,
    };
  }
  return run.startedByAgentId !== null
    ? { kind: 'agent', name: agentName.get(run.startedByAgentId) ?? 'an agent' }
    : { kind: 'person', nickname: memberById.get(run.startedByMemberId ?? '')?.nickname ?? 'someone' };
}

/** N1, N12: the note the turn answers, by its sender; nothing for a person's message. */
function noteOf(trigger: MessageRecord | null, agentName: Map<string, string>): Pick<PromptInput, 'note'> {
  const remote = trigger?.note?.remote;
  // R2, N12: a note from a paired relay names its agent there, on its relay, with its model.
  const sender =
    remote !== undefined
      ? remote.agentName
      : trigger?.note?.senderAgentId
        ? agentName.get(trigger.note.senderAgentId)
        : undefined;
  if (!trigger?.note || sender === undefined) return {};
  return {
    note: {
      fromAgent: sender,
      ...(trigger.note.senderRelay ? { relayName: trigger.note.senderRelay } : {}),
      ...(trigger.note.sourceTitle ? { sessionTitle: trigger.note.sourceTitle } : {}),
      ...(remote?.modelId ? { model: remote.modelId } : {}),
    },
  };
}

/** M7, M8: a person's message reaches the agent with the agent mentions stripped; a note as written. */
function promptText(trigger: MessageRecord | null, agents: AgentRecord[], members: MemberRecord[]): string {
  if (trigger === null) return '';
  if (trigger.note !== null || trigger.authorKind !== 'person') return trigger.text;
  return parsePersonMessage(trigger.text, {
    agents: agents.map((a) => ({ id: a.id, name: a.name })),
    members: members.map((m) => ({ id: m.id, nickname: m.nickname })),
  }).text;
}

function authorOf(
  message: MessageRecord,
  agentName: Map<string, string>,
  memberById: Map<string, MemberRecord>,
): HistoryMessage['author'] {
  if (message.authorKind === 'agent') {
    const remote = message.note?.remote;
    if (remote !== undefined && message.authorAgentId === null)
      return {
        kind: 'agent',
        name: `${remote.agentName} on ${message.note?.senderRelay ?? 'a paired relay'}`,
      };
    return { kind: 'agent', name: agentName.get(message.authorAgentId ?? '') ?? 'agent' };
  }
  if (message.authorKind === 'person') {
    return { kind: 'person', name: memberById.get(message.authorMemberId ?? '')?.nickname ?? 'someone' };
  }
  return { kind: 'system' };
}
