import type { ConversationRecord } from '../../model/conversation-records';
import type { AgentRecord, SpaceRecord } from '../../model/records';
import type { StoreTx } from '../../ports/store';
import type { HandoffTool } from '../../tools/handoff-limits';
import type { AgentToolContext } from './agent-tool-context';

const TITLE_LENGTH = 80;

/** What of a hand-off's request says where its turn happens (`HandoffRequest`). */
interface PlaceRequest {
  tool: HandoffTool;
  text: string;
  space?: string;
  inCurrentConversation?: boolean;
}

export type Place =
  | { ok: true; space: null }
  | { ok: true; space: SpaceRecord; platform: ConversationRecord['platform']; channelId: string }
  | { ok: false; reason: string };

/** Where the target's turn happens: this conversation (space null) or a new one in a space. */
export async function placeOf(
  ctx: AgentToolContext,
  tx: StoreTx,
  request: PlaceRequest,
  target: AgentRecord,
): Promise<Place> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  if (request.inCurrentConversation) return { ok: true, space: null };
  const spaces = await tx.spaces.list(workspaceId);
  const isIn = async (space: SpaceRecord) =>
    (await tx.spaces.listParticipants(space.id)).some((p) => p.kind === 'agent' && p.agentId === target.id);

  let candidates: SpaceRecord[];
  if (request.space !== undefined && request.space.trim() !== '') {
    const named = spaces.find((s) => s.name.toLowerCase() === request.space?.trim().toLowerCase());
    if (named === undefined) {
      return {
        ok: false,
        reason: `${request.tool} refused: there is no space named "${request.space}". Spaces: ${spaces.map((s) => s.name).join(', ')}.`,
      };
    }
    if (named.id === turn.space.id && (await isIn(named))) return { ok: true, space: null };
    candidates = [named];
  } else {
    if (await isIn(turn.space)) return { ok: true, space: null };
    candidates = [];
    for (const space of spaces) if (await isIn(space)) candidates.push(space);
    if (candidates.length === 0) candidates = [turn.space];
  }
  const bindings = await tx.channelBindings.listForWorkspace(workspaceId);
  for (const space of candidates) {
    const binding = bindings.find((b) => b.spaceId === space.id && deps.platforms.has(b.platform));
    if (binding !== undefined) {
      return { ok: true, space, platform: binding.platform, channelId: binding.channelId };
    }
  }
  return {
    ok: false,
    reason: `${request.tool} refused: ${target.name} takes part in no space with a chat channel here (${candidates.map((s) => s.name).join(', ')}), so there is nowhere to start its conversation. Name a space with a channel, or mention ${target.name} in this conversation.`,
  };
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** N4: the caller's conversation, or a new one in the place's space with the target taking part. */
export async function conversationAt(
  ctx: AgentToolContext,
  tx: StoreTx,
  request: PlaceRequest,
  place: Exclude<Place, { ok: false }>,
  target: AgentRecord,
): Promise<ConversationRecord> {
  const { turn } = ctx;
  if (place.space === null) return turn.conversation;
  const conversation = await tx.conversations.insert(turn.agent.workspaceId, {
    spaceId: place.space.id,
    platform: place.platform,
    threadId: null,
    title: titleOf(request.text),
    ownerAgentId: target.id,
    createdByAgentId: turn.agent.id,
  });
  await tx.spaces.addParticipant(place.space.id, { kind: 'agent', agentId: target.id });
  return conversation;
}
