import type { QuestionRecord } from '../../model/question-record';
import type { MemberRecord } from '../../model/records';
import type { InboundMessage } from '../../ports/chat-platform';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import { parseAnswer } from '../../tools/question-answer';
import { resumeTurnAwaitingQuestion } from '../waits/parked-turns';
import type { AgentToolDeps } from './agent-tool-deps';
import { redrawQuestionCard } from './questions';

export type AnsweredInThread =
  | { ok: true; question: QuestionRecord; by: string }
  | { ok: false; reason: string };

/**
 * N13: a person's reply in a thread where a question card waits (and that names no agent)
 * answers the oldest pending question, inside the message's transaction: an option number
 * or the reply's words. Null when nothing waits.
 */
export async function answerInThread(
  tx: StoreTx,
  deps: Pick<AgentToolDeps, 'clock'>,
  conversationId: string,
  text: string,
  member: MemberRecord,
): Promise<AnsweredInThread | null> {
  const [pending] = await tx.questions.listPending(conversationId);
  if (pending === undefined) return null;
  const parsed = parseAnswer(text, pending.options);
  if (!parsed.ok) return parsed;
  const answered = await tx.questions.answer(pending.id, {
    text: parsed.text,
    answeredByMemberId: member.id,
    answeredByAgentId: null,
    answeredAt: deps.clock.now(),
  });
  return answered === null
    ? { ok: false, reason: 'That question was answered a moment ago.' }
    : { ok: true, question: answered, by: member.nickname };
}

/** After the commit: the card shows the answer, or the person is told why it was not taken. */
export async function afterAnswerInThread(
  deps: Pick<AgentToolDeps, 'store' | 'clock' | 'waits' | 'platforms' | 'queue' | 'logger'>,
  message: InboundMessage,
  answered: AnsweredInThread,
): Promise<void> {
  if (answered.ok) {
    // T1: the turn waiting on this question, in whichever process, looks again.
    await deps.waits.notify(waitTopics.question(answered.question.id));
    await redrawQuestionCard(deps, answered.question, answered.by);
    // T2, A9: a turn parked on it (its worker died while it waited) goes back to the queue.
    await resumeTurnAwaitingQuestion(deps, answered.question);
    return;
  }
  await deps.platforms
    .get(message.platform)
    ?.tellPrivately(message.thread, message.senderId, answered.reason);
}
