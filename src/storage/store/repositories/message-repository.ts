import type { EntityManager } from 'typeorm';
import { NotFoundError, ValidationError } from '../../../core/errors';
import type { MessageRepository } from '../../../core/ports/conversation-store';
import { MessageEntity, type MessageRow } from '../../entities/message.entity';
import { isUuid } from '../ids';
import { deferInsert, insertReturning } from '../insert-returning';
import { deferUpdateById } from '../update-by-id';
import { toMessageColumns, toMessageRecord } from './message-mapping';

export const messageRepository = (manager: EntityManager): MessageRepository => {
  const rows = manager.getRepository(MessageEntity);

  /** Changes a note's own columns; a message that is not a note has none (N10). */
  const updateNote = async (id: string, values: Pick<Partial<MessageRow>, 'noteFoldState' | 'noteRunId'>) => {
    if (isUuid(id) && (await rows.update({ id, isNote: true }, values)).affected) return;
    if (isUuid(id) && (await rows.existsBy({ id }))) {
      // N10: people's messages, replies and steering prompts are no notes: they never fold.
      throw new ValidationError('Only an agent note can be folded, opened or linked to its run.');
    }
    throw new NotFoundError(`No message with id ${id} in this workspace.`);
  };

  return {
    async insert(workspaceId, fields) {
      // A2: the composite foreign keys refuse a conversation, author, source or run of another workspace.
      const row = await insertReturning(manager, MessageEntity, {
        workspaceId,
        conversationId: fields.conversationId,
        ...toMessageColumns(fields),
      });
      return toMessageRecord(row);
    },
    async insertOwed(workspaceId, fields) {
      // T3: assigned, not spread into a second spread (docs/turns-and-capacity.md).
      const values = { id: fields.id, workspaceId, conversationId: fields.conversationId };
      await deferInsert(manager, MessageEntity, Object.assign(values, toMessageColumns(fields)), 'message');
    },
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toMessageRecord(row) : null;
    },
    async listRecent(conversationId, limit) {
      if (!isUuid(conversationId) || limit < 1) return [];
      // (created_at, seq): messages stored in one transaction keep the order they were written in.
      const newest = await rows.find({
        where: { conversationId },
        order: { createdAt: 'DESC', seq: 'DESC' },
        take: Math.floor(limit),
      });
      return newest.reverse().map(toMessageRecord);
    },
    async setPlatformRef(id, platformMessageRef) {
      await deferUpdateById(rows, id, { platformMessageRef }, ['platformMessageRef'], 'message');
    },
    async setNoteFoldState(id, foldState) {
      await updateNote(id, { noteFoldState: foldState });
    },
    async linkNoteRun(noteId, runId) {
      // A2: fk_messages_note_run refuses a run of another workspace (a NotFoundError).
      if (!isUuid(runId)) throw new NotFoundError(`No run with id ${runId} in this workspace.`);
      await updateNote(noteId, { noteRunId: runId });
    },
    async findNoteOfRun(runId) {
      if (!isUuid(runId)) return null;
      const row = await rows.findOne({
        where: { noteRunId: runId, isNote: true },
        order: { createdAt: 'ASC', seq: 'ASC' },
      });
      return row ? toMessageRecord(row) : null;
    },
    async lastAgentAuthorId(conversationId) {
      if (!isUuid(conversationId)) return null;
      // M3: the agent that last *replied* here. A note is a prompt another agent sent in (N1),
      // not a reply, and a deleted agent (author id set null) cannot answer: both are skipped.
      const row = await rows
        .createQueryBuilder('message')
        .select(['message.id', 'message.authorAgentId'])
        .where('message.conversationId = :conversationId', { conversationId })
        .andWhere("message.authorKind = 'agent' AND NOT message.isNote")
        .andWhere('message.authorAgentId IS NOT NULL')
        .orderBy('message.createdAt', 'DESC')
        .addOrderBy('message.seq', 'DESC')
        .limit(1)
        .getOne();
      return row?.authorAgentId ?? null;
    },
  };
};
