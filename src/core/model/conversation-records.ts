import type { AttachmentRef } from './attachment';
import type { AuthorKind, NoteFoldState } from './message';
import type { Platform } from './platform';
import type { RemoteNoteOrigin } from './relays/relay-records';

/**
 * P2: a conversation is one thread of a space. `threadId` is the platform's opaque thread id
 * (`terminal:{channel}:{thread}`, `slack:{channel}:{thread_ts}`, `discord:{guild}:{channel}:{thread}`);
 * null while an agent-created conversation (N4) has not been posted yet.
 */
export interface ConversationRecord {
  id: string;
  workspaceId: string;
  spaceId: string;
  platform: Platform;
  threadId: string | null;
  title: string;
  ownerAgentId: string | null;
  createdByAgentId: string | null;
  createdAt: Date;
}

/** M11: the principals a message resolved, kept for notification and history. */
export interface MessageMentions {
  agents: { agentId: string; name: string }[];
  members: { memberId: string; nickname: string }[];
}

/** N1–N9: what makes a message a note, a prompt one agent sent to another conversation. */
export interface NoteFields {
  senderAgentId: string | null;
  /** The paired relay that sent it; null for this relay. */
  senderRelay: string | null;
  sourceConversationId: string | null;
  sourceTitle: string | null;
  /** The run the note started; its state drives the fold (N9). */
  runId: string | null;
  foldState: NoteFoldState;
  /** R2, N3, N12: set on a note from a paired relay's agent (`senderAgentId` is then null). */
  remote?: RemoteNoteOrigin;
}

export interface MessageRecord {
  id: string;
  workspaceId: string;
  conversationId: string;
  authorKind: AuthorKind;
  authorAgentId: string | null;
  authorMemberId: string | null;
  text: string;
  mentions: MessageMentions;
  /** The platform's id of the posted message, once posted. */
  platformMessageRef: string | null;
  note: NoteFields | null;
  /** P13: the files attached to a person's message (absent: none). */
  attachments?: readonly AttachmentRef[];
  createdAt: Date;
}

export type MessageFields = Omit<MessageRecord, 'id' | 'workspaceId' | 'createdAt'>;
