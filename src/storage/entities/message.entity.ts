import { EntitySchema } from 'typeorm';
import {
  AUTHOR_KINDS,
  type AuthorKind,
  NOTE_FOLD_STATES,
  type NoteFoldState,
} from '../../core/model/message';
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

/**
 * A message of a conversation; the note fields describe an agent's prompt (N1–N9) and are
 * set only when `isNote` is.
 */
export interface MessageRow {
  id: string;
  seq: string;
  workspaceId: string;
  conversationId: string;
  authorKind: AuthorKind;
  authorAgentId: string | null;
  authorMemberId: string | null;
  text: string;
  /** M11: resolved mentions, `{ agents, members }` as the core describes them; read defensively. */
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
  /** R2: a note from a paired relay (`RemoteNoteOrigin`); read defensively. */
  noteRemote: unknown;
  /** P13: the attached files' descriptions (`AttachmentRef`s); read defensively. */
  attachments: unknown;
  createdAt: Date;
}

export const MessageEntity = new EntitySchema<MessageRow>({
  name: 'messages',
  columns: {
    id: primaryId('messages'),
    seq: creationSeq,
    // T3: the key is (id, workspace_id), one index for every look-up by id and the tenant-scoped keys.
    workspaceId: { ...uuid(), primary: true, primaryKeyConstraintName: 'pk_messages' },
    conversationId: uuid(),
    authorKind: text(),
    authorAgentId: uuid(true),
    authorMemberId: uuid(true),
    text: text(),
    mentions: jsonb('{"agents": [], "members": []}'),
    platformMessageRef: text({ nullable: true }),
    isNote: boolean(false),
    noteSenderAgentId: uuid(true),
    noteSenderRelay: text({ nullable: true }),
    noteSourceConversationId: uuid(true),
    noteSourceTitle: text({ nullable: true }),
    noteRunId: uuid(true),
    noteFoldState: text({ nullable: true }),
    noteRemote: { type: 'jsonb', nullable: true },
    attachments: jsonb('[]'),
    createdAt,
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_messages_conversation', 'conversationId', 'conversations', 'CASCADE', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_messages_author_agent', 'authorAgentId', 'agents', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_messages_author_member', 'authorMemberId', 'members', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey('fk_messages_note_sender_agent', 'noteSenderAgentId', 'agents', 'SET NULL', {
      checkedAtCommit: true,
    }),
    sameWorkspaceForeignKey(
      'fk_messages_note_source_conversation',
      'noteSourceConversationId',
      'conversations',
      'SET NULL',
      { checkedAtCommit: true },
    ),
    sameWorkspaceForeignKey('fk_messages_note_run', 'noteRunId', 'runs', 'SET NULL', {
      checkedAtCommit: true,
    }),
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
    // N9: a note always has a fold state, so a message is a note exactly when it has one.
    { name: 'ck_messages_note_fold_state_set', expression: 'NOT is_note OR note_fold_state IS NOT NULL' },
  ],
  // P6: a platform message is recorded once by its event's key (`processed_inbound_events`);
  // T3: its ref, written once a reply is posted, is in no index, so that write is HOT.
  indices: [
    { name: 'ix_messages_conversation', columns: ['conversationId', 'createdAt', 'seq'] },
    // M3: the newest agent reply of a conversation (notes are not replies).
    {
      name: 'ix_messages_agent_replies',
      columns: ['conversationId', 'createdAt', 'seq'],
      where: "author_kind = 'agent' AND NOT is_note",
    },
    // N9: the note that started a run.
    { name: 'ix_messages_note_run', columns: ['noteRunId'], where: 'note_run_id IS NOT NULL' },
  ],
});
