import type { ConversationRecord } from '../model/conversation-records';
import type { Platform } from '../model/platform';
import type {
  AgentRecord,
  ChannelBindingRecord,
  MemberRecord,
  ParticipantRef,
  SpaceRecord,
  WorkspaceRecord,
} from '../model/records';
import type { InboundMessage } from './chat-platform';

/** Where a person's message came from, as routing looks it up. */
export interface RoutingKey {
  platform: Platform;
  workspace: InboundMessage['workspace'];
  channelId: string;
  /** The thread the message is in (its conversation, if Summon knows it). */
  thread: string;
  /** The sender: the terminal's nickname, a Slack or Discord user id. */
  senderId: string;
}

/**
 * What routing a person's message reads before it writes, as the repositories would each have
 * returned it (P1, P8, M1–M12): the workspace (by slug, or by the team's or guild's binding), the
 * channel's binding (whichever workspace holds it), the bound space when it is this workspace's,
 * the sender as a member (M10: a nickname ignores case; P8: a platform account through its
 * linked member), the workspace's agents and members, the thread's conversation, and the bound
 * space's participants. Null or empty where there is none.
 */
export interface RoutingReads {
  workspace: WorkspaceRecord | null;
  binding: ChannelBindingRecord | null;
  space: SpaceRecord | null;
  sender: MemberRecord | null;
  /** Oldest first (M5's order). */
  agents: AgentRecord[];
  members: MemberRecord[];
  conversation: ConversationRecord | null;
  /** The bound space's participants, in their order. */
  participants: ParticipantRef[];
}

/** T3, T4 (issue 12, item 5): routing's reads in one round trip, in the routing transaction. */
export interface RoutingReadRepository {
  read(key: RoutingKey): Promise<RoutingReads>;
}
