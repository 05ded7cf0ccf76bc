import { EntitySchema } from 'typeorm';
import {
  createdAt,
  creationSeq,
  jsonb,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
} from './columns';

export const QUESTION_STATUSES = ['pending', 'answered', 'cancelled'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/** N13: a question a run asked in a conversation; a person or another agent answers it. */
export interface QuestionRow {
  id: string;
  seq: string;
  workspaceId: string;
  runId: string;
  conversationId: string;
  text: string;
  /** The choices offered (a JSON array of strings); empty for a free-text question. */
  options: unknown;
  status: QuestionStatus;
  answer: string | null;
  answeredByMemberId: string | null;
  answeredByAgentId: string | null;
  platformCardRef: string | null;
  createdAt: Date;
  answeredAt: Date | null;
}

export const QuestionEntity = new EntitySchema<QuestionRow>({
  name: 'questions',
  columns: {
    id: primaryId('questions'),
    seq: creationSeq,
    workspaceId: uuid(),
    runId: uuid(),
    conversationId: uuid(),
    text: text(),
    options: jsonb('[]'),
    status: text({ default: 'pending' }),
    answer: text({ nullable: true }),
    answeredByMemberId: uuid(true),
    answeredByAgentId: uuid(true),
    platformCardRef: text({ nullable: true }),
    createdAt,
    answeredAt: timestamp({ nullable: true }),
  },
  foreignKeys: [
    sameWorkspaceForeignKey('fk_questions_run', 'runId', 'runs', 'CASCADE'),
    sameWorkspaceForeignKey('fk_questions_conversation', 'conversationId', 'conversations', 'CASCADE'),
    sameWorkspaceForeignKey('fk_questions_answered_by_member', 'answeredByMemberId', 'members', 'SET NULL'),
    sameWorkspaceForeignKey('fk_questions_answered_by_agent', 'answeredByAgentId', 'agents', 'SET NULL'),
  ],
  checks: [
    { name: 'ck_questions_status', expression: oneOf('status', QUESTION_STATUSES) },
    {
      name: 'ck_questions_answered_by',
      expression: 'num_nonnulls(answered_by_member_id, answered_by_agent_id) <= 1',
    },
  ],
  indices: [
    {
      name: 'ix_questions_pending',
      columns: ['conversationId', 'createdAt', 'seq'],
      where: "status = 'pending'",
    },
  ],
});
