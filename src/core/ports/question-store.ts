import type { QuestionRecord } from '../model/question-record';

/** N13: question cards as the store keeps them. */
export interface QuestionRepository {
  insert(
    workspaceId: string,
    fields: Pick<QuestionRecord, 'runId' | 'conversationId' | 'text' | 'options'>,
  ): Promise<QuestionRecord>;
  findById(id: string): Promise<QuestionRecord | null>;
  /** The conversation's pending questions, oldest first. */
  listPending(conversationId: string): Promise<QuestionRecord[]>;
  /**
   * Records an answer only if the question is still `pending` (compare-and-set, so two
   * answers at once cannot both count); returns the answered record, or null if it was not.
   */
  answer(
    id: string,
    answer: {
      text: string;
      answeredByMemberId: string | null;
      answeredByAgentId: string | null;
      answeredAt: Date;
    },
  ): Promise<QuestionRecord | null>;
  /** A question whose run ended without an answer; returns whether it was still pending. */
  cancel(id: string): Promise<boolean>;
  setCardRef(id: string, platformCardRef: string): Promise<void>;
}
