import { EntitySchema } from 'typeorm';
import {
  AUTHOR_KINDS,
  type AuthorKind,
  NOTE_FOLD_STATES,
  type NoteFoldState,
} from '../../core/model/message';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import {
  boolean,
  createdAt,
  creationSeq,
  jsonb,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  uuid,
} from './columns';

/** P2: one thread of a space. N4: `createdByAgentId` marks a conversation an agent created. */
export interface ConversationRow {
  id: string;
  seq: string;
  workspaceId: string;
  spaceId: string;
  platform: Platform;
  platformThreadRef: string | null;
  title: string;
  ownerAgentId: string | null;
  createdByAgentId: string | null;
  createdAt: Date;
}

export const ConversationEntity = new EntitySchema<ConversationRow>({
  name: 'conversations',
  columns: {
    id: primaryId('conversations'),
    seq: creationSeq,
    workspaceId: uuid(),
    spaceId: uuid(),
    platform: text(),
    platformThreadRef: text({ nullable: true }),
    title: text({ default: '' }),
    ownerAgentId: uuid(true),
    createdByAgentId: uuid(true),
    createdAt,
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_conversations_space', 'spaceId', 'spaces', 'CASCADE'),
    sameWorkspaceForeignKey('fk_conversations_owner_agent', 'ownerAgentId', 'agents', 'SET NULL'),
    sameWorkspaceForeignKey('fk_conversations_created_by_agent', 'createdByAgentId', 'agents', 'SET NULL'),
  ],
  checks: [{ name: 'ck_conversations_platform', expression: oneOf('platform', PLATFORMS) }],
  uniques: [
    { name: 'uq_conversations_id_workspace', columns: ['id', 'workspaceId'] },
    { name: 'uq_conversations_thread', columns: ['platform', 'platformThreadRef'] },
  ],
});

/** A message of a conversation; the note fields describe an agent's prompt (N1–N9). */
export interface MessageRow {
  id: string;
  seq: string;
  workspaceId: string;
  conversationId: string;
  authorKind: AuthorKind;
  authorAgentId: string | null;
  authorMemberId: string | null;
  text: string;
  /** M11: resolved mentions (agents and members), as the core describes them. */
  mentions: unknown;
  platformMessageRef: string | null;
  isNote: boolean;
  noteSenderAgentId: string | null;
  /** N5: the paired relay that sent the note; null for this relay. */
  noteSenderRelay: string | null;
  noteSourceConversationId: string | null;
  noteSourceTitle: string | null;
  noteRunId: string | null;
  noteFoldState: NoteFoldState | null;
  createdAt: Date;
}

export const MessageEntity = new EntitySchema<MessageRow>({
  name: 'messages',
  columns: {
    id: primaryId('messages'),
    seq: creationSeq,
    workspaceId: uuid(),
    conversationId: uuid(),
    authorKind: text(),
    authorAgentId: uuid(true),
    authorMemberId: uuid(true),
    text: text(),
    mentions: jsonb('[]'),
    platformMessageRef: text({ nullable: true }),
    isNote: boolean(false),
    noteSenderAgentId: uuid(true),
    noteSenderRelay: text({ nullable: true }),
    noteSourceConversationId: uuid(true),
    noteSourceTitle: text({ nullable: true }),
    noteRunId: uuid(true),
    noteFoldState: text({ nullable: true }),
    createdAt,
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_messages_conversation', 'conversationId', 'conversations', 'CASCADE'),
    sameWorkspaceForeignKey('fk_messages_author_agent', 'authorAgentId', 'agents', 'SET NULL'),
    sameWorkspaceForeignKey('fk_messages_author_member', 'authorMemberId', 'members', 'SET NULL'),
    sameWorkspaceForeignKey('fk_messages_note_sender_agent', 'noteSenderAgentId', 'agents', 'SET NULL'),
    sameWorkspaceForeignKey(
      'fk_messages_note_source_conversation',
      'noteSourceConversationId',
      'conversations',
      'SET NULL',
    ),
    sameWorkspaceForeignKey('fk_messages_note_run', 'noteRunId', 'runs', 'SET NULL'),
  ],
  checks: [
    { name: 'ck_messages_author_kind', expression: oneOf('author_kind', AUTHOR_KINDS) },
    {
      name: 'ck_messages_author',
      expression:
        "(author_kind = 'agent' OR author_agent_id IS NULL) AND (author_kind = 'person' OR author_member_id IS NULL)",
    },
    { name: 'ck_messages_note_fold_state', expression: oneOf('note_fold_state', NOTE_FOLD_STATES) },
    { name: 'ck_messages_fold_only_notes', expression: 'is_note OR note_fold_state IS NULL' },
  ],
  uniques: [{ name: 'uq_messages_id_workspace', columns: ['id', 'workspaceId'] }],
  indices: [{ name: 'ix_messages_conversation', columns: ['conversationId', 'createdAt', 'seq'] }],
});
