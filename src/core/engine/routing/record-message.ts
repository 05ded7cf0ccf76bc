import { randomUUID } from 'node:crypto';
import { type PersonMessageMentions, parsePersonMessage, personMentionPrefixes } from '../../mentions';
import type { MessageMentions } from '../../model/conversation-records';
import type { MemberRecord, SpaceRecord, WorkspaceRecord } from '../../model/records';
import type { InboundMessage } from '../../ports/chat-platform';
import type { RoutingKey, RoutingReads } from '../../ports/routing-reads';
import type { StoreTx } from '../../ports/store';

const TITLE_LENGTH = 80;

/**
 * P6: the event recorded once, and what routing reads: who sent it where, the workspace's
 * agents and the members the message may mention, the thread's conversation and the space's participants. Asked together,
 * one round trip (T3). Null for a repeated delivery (its reads are not used).
 */
export async function recordAndRead(tx: StoreTx, message: InboundMessage): Promise<RoutingReads | null> {
  const [first, reads] = await Promise.all([
    tx.processedEvents.record(message.platform, message.eventId),
    tx.routingReads.read(routingKeyOf(message)),
  ]);
  return first ? reads : null;
}

/**
 * T3, T4: `recordAndRead`'s statements asked now, for a message routed later in this
 * transaction (an inbox batch's rows, asked with its first row's decoding): its routing then
 * finds their answers. `withReads` false: the event is only recorded (a thread's later row reads
 * the conversation its earlier one makes, so it reads when routed).
 */
export function recordAndReadAhead(tx: StoreTx, message: InboundMessage, withReads: boolean): void {
  tx.processedEvents.recordAhead(message.platform, message.eventId);
  if (withReads) tx.routingReads.readAhead(routingKeyOf(message));
}

const routingKeyOf = (message: InboundMessage): RoutingKey => ({
  platform: message.platform,
  workspace: message.workspace,
  channelId: message.channelId,
  thread: message.thread,
  senderId: message.senderId,
  // M10: only the members the message's mentions may reach are read, not all of them.
  mentioned: personMentionPrefixes(message.text),
});

/** M4–M12: the message's mentions, resolved against the workspace's agents and the members they may reach. */
export function mentionsIn(text: string, reads: Pick<RoutingReads, 'agents' | 'members'>) {
  return parsePersonMessage(text, {
    agents: reads.agents.map((a) => ({ id: a.id, name: a.name })),
    members: reads.members.map((m) => ({ id: m.id, nickname: m.nickname })),
  });
}

/** Where a resolved sender's message goes (P8). */
export interface MessagePlace {
  workspace: WorkspaceRecord;
  space: SpaceRecord;
  member: MemberRecord;
  /** The thread's conversation, when it has one already. */
  existing: { id: string; ownerAgentId: string | null } | null;
}

/** The stored message and its conversation. */
export interface StoredMessage {
  conversation: { id: string; ownerAgentId: string | null };
  messageId: string;
  /**
   * Made in this transaction: no other has seen it, so it has no agent message and no running
   * turn, and routing does not look for them (T3: no statement that cannot find anything).
   */
  fresh: boolean;
}

/**
 * The person's message stored in its thread's conversation (made here for a new thread). T3:
 * both are given their ids here and inserted with the transaction's next statement (at the
 * latest its commit): nothing reads them back, so they cost no round trip of their own.
 */
export async function storeMessage(
  tx: StoreTx,
  message: InboundMessage,
  place: MessagePlace,
  parsed: PersonMessageMentions,
): Promise<StoredMessage> {
  const { workspace, space, member, existing } = place;
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
  await tx.messages.insertOwed(workspace.id, {
    id: messageId,
    conversationId: conversation.id,
    authorKind: 'person',
    authorAgentId: null,
    authorMemberId: member.id,
    text: message.text,
    mentions: storedMentions(parsed),
    platformMessageRef: message.messageRef,
    note: null,
    // P13: what was attached is recorded with the message; the turn fetches it when it starts.
    ...(message.attachments === undefined || message.attachments.length === 0
      ? {}
      : { attachments: message.attachments }),
  });
  return { conversation, messageId, fresh: existing === null };
}

function storedMentions(parsed: PersonMessageMentions): MessageMentions {
  return {
    agents: parsed.agents.map(({ agent }) => ({ agentId: agent.id, name: agent.name })),
    // M11: a person's mention of a person starts nobody; it is kept for notification.
    members: parsed.members.map(({ member }) => ({ memberId: member.id, nickname: member.nickname })),
  };
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}
