import type { MessageRecord } from '../../model/conversation-records';
import type { AgentRecord } from '../../model/records';

/**
 * N1, R2: who a note is shown as: the local agent that sent it, or the paired relay's agent
 * by its name there (no avatar is taken from another relay). Undefined when neither is known.
 */
export function noteAuthorOf(
  note: MessageRecord,
  agents: readonly AgentRecord[],
): { name: string; avatarUrl: string | null } | undefined {
  const remote = note.note?.remote;
  if (remote !== undefined) return { name: remote.agentName, avatarUrl: null };
  return agents.find((a) => a.id === note.note?.senderAgentId);
}
