import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../../../core/errors';
import type { QuestionRecord } from '../../../core/model/question-record';
import type { QuestionRepository } from '../../../core/ports/question-store';
import { QuestionEntity, type QuestionRow } from '../../entities/question.entity';
import { isUuid } from '../ids';
import { queryRecords } from '../query-records';
import { updateById } from '../update-by-id';

/** N13: the offered options, read defensively (jsonb written by hand yields only its strings). */
const toOptions = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((option): option is string => typeof option === 'string') : [];

export const toQuestionRecord = (row: QuestionRow): QuestionRecord => ({
  id: row.id,
  workspaceId: row.workspaceId,
  runId: row.runId,
  conversationId: row.conversationId,
  text: row.text,
  options: toOptions(row.options),
  status: row.status,
  answer: row.answer,
  answeredByMemberId: row.answeredByMemberId,
  answeredByAgentId: row.answeredByAgentId,
  platformCardRef: row.platformCardRef,
  createdAt: row.createdAt,
  answeredAt: row.answeredAt,
});

/** N13: the first answer wins; a second one finds the row no longer pending (RETURNING is empty). */
const ANSWER = `
  UPDATE questions SET status = 'answered', answer = $2, answered_by_member_id = $3,
         answered_by_agent_id = $4, answered_at = $5
   WHERE id = $1 AND status = 'pending'
  RETURNING id`;

const CANCEL = `UPDATE questions SET status = 'cancelled' WHERE id = $1 AND status = 'pending' RETURNING id`;

export const questionRepository = (manager: EntityManager): QuestionRepository => {
  const rows = manager.getRepository(QuestionEntity);
  return {
    async insert(workspaceId, fields) {
      // A2: fk_questions_run and fk_questions_conversation refuse rows of another workspace.
      if (!isUuid(fields.runId)) throw new NotFoundError(`No run with id ${fields.runId} in this workspace.`);
      const row = rows.create({
        workspaceId,
        runId: fields.runId,
        conversationId: fields.conversationId,
        text: fields.text,
        options: [...fields.options],
        status: 'pending',
        answer: null,
        answeredByMemberId: null,
        answeredByAgentId: null,
        platformCardRef: null,
        answeredAt: null,
      });
      return toQuestionRecord(await rows.save(row));
    },
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await rows.findOneBy({ id });
      return row ? toQuestionRecord(row) : null;
    },
    async listPending(conversationId) {
      if (!isUuid(conversationId)) return [];
      const found = await rows.find({
        where: { conversationId, status: 'pending' },
        order: { createdAt: 'ASC', seq: 'ASC' },
      });
      return found.map(toQuestionRecord);
    },
    async answer(id, answer) {
      if (!isUuid(id)) return null;
      const [answered] = await queryRecords<{ id: string }>(manager, ANSWER, [
        id,
        answer.text,
        answer.answeredByMemberId,
        answer.answeredByAgentId,
        answer.answeredAt,
      ]);
      if (!answered) return null;
      return toQuestionRecord(await rows.findOneByOrFail({ id: answered.id }));
    },
    async cancel(id) {
      if (!isUuid(id)) return false;
      return (await queryRecords<{ id: string }>(manager, CANCEL, [id])).length > 0;
    },
    async setCardRef(id, platformCardRef) {
      await updateById(rows, id, { platformCardRef }, ['platformCardRef'], 'question');
    },
  };
};
