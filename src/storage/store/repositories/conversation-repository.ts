import { type EntityManager, In } from 'typeorm';
import type { ConversationRecord } from '../../../core/model/conversation-records';
import type { ConversationRepository, NewConversation } from '../../../core/ports/conversation-store';
import { ConversationEntity, type ConversationRow } from '../../entities/conversation.entity';
import { isUuid } from '../ids';
import { deferInsert, insertReturning } from '../insert-returning';
import { updateById } from '../update-by-id';

/** P2: the record's `threadId` is the row's `platform_thread_ref`. */
export const toConversationRecord = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  spaceId: row.spaceId,
  platform: row.platform,
  threadId: row.platformThreadRef,
  title: row.title,
  ownerAgentId: row.ownerAgentId,
  createdByAgentId: row.createdByAgentId,
  createdAt: row.createdAt,
});

export const conversationRepository = (manager: EntityManager): ConversationRepository => {
  const rows = manager.getRepository(ConversationEntity);
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toConversationRecord(row) : null;
    },
    async findByIds(ids) {
      const valid = ids.filter(isUuid);
      if (valid.length === 0) return [];
      return (await rows.findBy({ id: In(valid) })).map(toConversationRecord);
    },
    async findByThread(platform, threadId) {
      const row = await rows.findOneBy({ platform, platformThreadRef: threadId });
      return row ? toConversationRecord(row) : null;
    },
    async insert(workspaceId, fields) {
      // A2: the composite foreign keys refuse a space or agent of another workspace;
      // uq_conversations_thread refuses a second conversation for one thread (a ConflictError).
      return toConversationRecord(
        await insertReturning(manager, ConversationEntity, conversationColumns(workspaceId, fields)),
      );
    },
    async insertOwed(workspaceId, fields) {
      const values = { id: fields.id, ...conversationColumns(workspaceId, fields) };
      await deferInsert(manager, ConversationEntity, values, 'conversation');
    },
    async setThreadId(id, threadId) {
      await updateById(rows, id, { platformThreadRef: threadId }, ['platformThreadRef'], 'conversation');
    },
  };
};

/** A new conversation's columns (P2: its thread id is `platform_thread_ref`). */
const conversationColumns = (workspaceId: string, fields: NewConversation): Partial<ConversationRow> => ({
  workspaceId,
  spaceId: fields.spaceId,
  platform: fields.platform,
  platformThreadRef: fields.threadId,
  title: fields.title,
  ownerAgentId: fields.ownerAgentId,
  createdByAgentId: fields.createdByAgentId,
});
