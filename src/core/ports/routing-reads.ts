import type { ConversationRecord } from '../model/conversation-records';
import type { AccessGrant } from '../model/members/access-group';
import type { BindablePlatform, Platform } from '../model/platform';
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
  /**
   * M10: the message's mention tokens, folded (`personMentionPrefixes`): only members whose
   * nickname starts with one of them (case ignored) are read; none when it mentions nobody.
   */
  mentioned: readonly string[];
}

/**
 * What routing a person's message reads before it writes, as the repositories would each have
 * returned it (P1, P8, M1–M12): the workspace (by slug, or by the team's or guild's binding), the
 * channel's binding (whichever workspace holds it), the bound space when it is this workspace's,
 * the sender as a member (M10: a nickname ignores case; P8: a platform account through its
 * linked member), the workspace's agents, the members its mentions may reach, the thread's
 * conversation, and the bound space's participants. Null or empty where there is none.
 */
export interface RoutingReads {
  workspace: WorkspaceRecord | null;
  binding: ChannelBindingRecord | null;
  space: SpaceRecord | null;
  sender: MemberRecord | null;
  /** Oldest first (M5's order). */
  agents: AgentRecord[];
  /** M10: the members whose nickname starts with one of the key's `mentioned` (oldest first, M5). */
  members: MemberRecord[];
  conversation: ConversationRecord | null;
  /** The bound space's participants, in their order. */
  participants: ParticipantRef[];
  /** P24: the workspace's `access` list (the groups that admit people), in the file's order. */
  access: AccessGrant[];
}

/**
 * T3, T4: routing's reads in one round trip, in the routing transaction.
 * Each is one statement, sent with whatever else the transaction asks in the same tick: an
 * inbox decoder's `membersOfTeam` and `channelIsBound` asked together (`Promise.all`) cost one
 * round trip.
 */
export interface RoutingReadRepository {
  read(key: RoutingKey): Promise<RoutingReads>;
  /**
   * T3, T4: `read` asked now, with whatever the transaction sends next (an inbox batch's rows,
   * with its first row's decoding); this transaction's next `read` of the same key gets the
   * answer, unless the transaction wrote the directory meanwhile (then it reads again).
   */
  readAhead(key: RoutingKey): void;
  /**
   * M11, P8: the members of the workspace a team or guild is bound to (oldest first) that a text
   * names: linked to one of `accounts` on this platform, or holding one of `nicknames` (M10:
   * case ignored); none when unbound. Never the whole team: a message costs what it names.
   */
  membersOfTeam(platform: BindablePlatform, teamId: string, named: MembersNamed): Promise<MemberRecord[]>;
  /**
   * Whether the channel is bound to a space; given `teamId`, only a space of the workspace that
   * team or guild is bound to counts (P1).
   */
  channelIsBound(platform: BindablePlatform, channelId: string, teamId?: string): Promise<boolean>;
}

/** Who a text names: platform accounts (`<@U…>`), or nicknames (`@nickname`). */
export type MembersNamed = { accounts: readonly string[] } | { nicknames: readonly string[] };
