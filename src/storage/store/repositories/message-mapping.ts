import { toAttachmentRefs } from '../../../core/model/attachment';
import type { MessageFields, MessageMentions, MessageRecord } from '../../../core/model/conversation-records';
import { toRemoteNoteOrigin } from '../../../core/relays/remote-note-origin';
import type { MessageRow } from '../../entities/message.entity';

type MessageColumns = Omit<MessageRow, 'id' | 'seq' | 'workspaceId' | 'conversationId' | 'createdAt'>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const listOf = <T>(value: unknown, entry: (item: Record<string, unknown>) => T | null): T[] =>
  Array.isArray(value) ? value.flatMap((item) => (isRecord(item) ? (entry(item) ?? []) : [])) : [];

/**
 * M11: the stored mentions, read defensively: jsonb written by hand or by an older shape (the
 * first schema defaulted to `[]`) yields what can be recognised, never a malformed record.
 */
export const toMentions = (value: unknown): MessageMentions => {
  const stored = isRecord(value) ? value : {};
  return {
    agents: listOf(stored.agents, ({ agentId, name }) =>
      typeof agentId === 'string' && typeof name === 'string' ? { agentId, name } : null,
    ),
    members: listOf(stored.members, ({ memberId, nickname }) =>
      typeof memberId === 'string' && typeof nickname === 'string' ? { memberId, nickname } : null,
    ),
  };
};

/** N1–N9: `note` is null exactly when the row is not a note. */
export const toMessageRecord = (row: MessageRow): MessageRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  conversationId: row.conversationId,
  authorKind: row.authorKind,
  authorAgentId: row.authorAgentId,
  authorMemberId: row.authorMemberId,
  text: row.text,
  mentions: toMentions(row.mentions),
  platformMessageRef: row.platformMessageRef,
  note: row.isNote
    ? {
        senderAgentId: row.noteSenderAgentId,
        senderRelay: row.noteSenderRelay,
        sourceConversationId: row.noteSourceConversationId,
        sourceTitle: row.noteSourceTitle,
        runId: row.noteRunId,
        // ck_messages_note_fold_state_set: a note always has one.
        foldState: row.noteFoldState ?? 'auto',
        ...remoteOf(row.noteRemote),
      }
    : null,
  ...attachmentsOf(row.attachments),
  createdAt: row.createdAt,
});

/** R2: the paired relay's part of a note, when the row has a readable one. */
const remoteOf = (value: unknown) => {
  const remote = toRemoteNoteOrigin(value);
  return remote === null ? {} : { remote };
};

/** P13: present only when the message has any. */
const attachmentsOf = (value: unknown): Pick<MessageRecord, 'attachments'> => {
  const attachments = toAttachmentRefs(value);
  return attachments.length === 0 ? {} : { attachments };
};

/** Exactly the columns a message's fields map to, whatever else the caller's object carries. */
export const toMessageColumns = (fields: MessageFields): MessageColumns => {
  const { note, mentions } = fields;
  return {
    authorKind: fields.authorKind,
    authorAgentId: fields.authorAgentId,
    authorMemberId: fields.authorMemberId,
    text: fields.text,
    mentions: {
      agents: mentions.agents.map(({ agentId, name }) => ({ agentId, name })),
      members: mentions.members.map(({ memberId, nickname }) => ({ memberId, nickname })),
    } satisfies MessageMentions,
    platformMessageRef: fields.platformMessageRef,
    isNote: note !== null,
    noteSenderAgentId: note?.senderAgentId ?? null,
    noteSenderRelay: note?.senderRelay ?? null,
    noteSourceConversationId: note?.sourceConversationId ?? null,
    noteSourceTitle: note?.sourceTitle ?? null,
    noteRunId: note?.runId ?? null,
    noteFoldState: note?.foldState ?? null,
    noteRemote: note?.remote ?? null,
    attachments: (fields.attachments ?? []).map(({ id, name, size, mimeType, url, unavailable }) => ({
      id,
      name,
      size,
      mimeType,
      url,
      ...(unavailable === undefined ? {} : { unavailable }),
    })),
  };
};
