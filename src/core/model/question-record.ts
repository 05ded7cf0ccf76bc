/** N13: the states of a question card. */
export type QuestionStatus = 'pending' | 'answered' | 'cancelled';

/** N13: a question a run asked in its conversation; a person or another agent answers it. */
export interface QuestionRecord {
  id: string;
  workspaceId: string;
  runId: string;
  conversationId: string;
  text: string;
  /** The choices offered; empty for a free-text question. */
  options: string[];
  status: QuestionStatus;
  answer: string | null;
  answeredByMemberId: string | null;
  answeredByAgentId: string | null;
  platformCardRef: string | null;
  createdAt: Date;
  answeredAt: Date | null;
}
