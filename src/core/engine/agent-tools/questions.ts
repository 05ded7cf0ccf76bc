import type { QuestionRecord } from '../../model/question-record';
import type { OutboundMessage } from '../../ports/chat-platform';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import { parseAnswer } from '../../tools/question-answer';
import { postSystemMessage } from '../cards/system-message';
import { resumeTurnAwaitingQuestion } from '../waits/parked-turns';
import type { AgentToolDeps } from './agent-tool-deps';

/** N13: the card of a question, as every platform receives it. */
export function questionMessage(
  question: QuestionRecord,
  asker: { name: string; avatarUrl: string | null },
  answeredBy: string | null,
  /** P15: who stopped the asking turn while the question waited; the card then says so. */
  stoppedBy: string | null = null,
): OutboundMessage {
  return {
    as: { kind: 'agent', name: asker.name, avatarUrl: asker.avatarUrl },
    content: {
      kind: 'question',
      card: {
        questionId: question.id,
        agent: asker.name,
        text: question.text,
        options: [...question.options],
        status: question.status,
        answer: question.answer,
        answeredBy,
        ...(stoppedBy === null ? {} : { stoppedBy }),
      },
    },
  };
}

/** Who answers: a person (ChatEngine) or an agent (`answer_question`). */
export type Answerer =
  | { kind: 'member'; id: string; name: string }
  | { kind: 'agent'; id: string; name: string }
  /** N13, R1: an agent of a paired relay at `full` (`name`: `alice on build-box`). */
  | { kind: 'remote'; name: string };

/** What answering and redrawing a question card need of the engine. */
type QuestionDeps = Pick<AgentToolDeps, 'store' | 'clock' | 'waits' | 'platforms'>;
/** T2: answering also takes a turn parked on the question back to the queue. */
type AnswerDeps = QuestionDeps & Pick<AgentToolDeps, 'queue' | 'logger'>;

export type AnswerResult =
  | { ok: true; question: QuestionRecord }
  /** `approval`: the id is an approval's, which only a person decides (N13, G4). */
  | { ok: false; reason: string; approval?: true };

/**
 * N13: records the first answer to a pending question (an option number or free text) and
 * redraws its card with the answer and who gave it; the waiting run is notified (T1).
 */
export async function recordAnswer(
  deps: AnswerDeps,
  workspaceId: string,
  questionId: string,
  answer: string,
  by: Answerer,
  check: (question: QuestionRecord, tx: StoreTx) => Promise<string | null> = async () => null,
): Promise<AnswerResult> {
  const result = await deps.store.inWorkspace(workspaceId, async (tx): Promise<AnswerResult> => {
    const question = await tx.questions.findById(questionId);
    // N13, G4: an approval card is never an agent's to answer, whoever asks and from where.
    if (question === null && (await tx.approvals.findById(questionId)) !== null)
      return {
        ok: false,
        approval: true,
        reason: `${questionId} is an approval, not a question: a person with the role owner, admin or approver decides it on its card, never an agent. Tell the people it is waiting for them.`,
      };
    if (question === null)
      return { ok: false, reason: `There is no question ${questionId} in this workspace.` };
    if (question.status !== 'pending') {
      return { ok: false, reason: `That question is no longer waiting for an answer (${question.status}).` };
    }
    const refusal = await check(question, tx);
    if (refusal !== null) return { ok: false, reason: refusal };
    const parsed = parseAnswer(answer, question.options);
    if (!parsed.ok) return parsed;
    const answered = await tx.questions.answer(question.id, {
      text: parsed.text,
      answeredByMemberId: by.kind === 'member' ? by.id : null,
      answeredByAgentId: by.kind === 'agent' ? by.id : null,
      answeredAt: deps.clock.now(),
    });
    if (answered === null) return { ok: false, reason: 'That question was answered a moment ago.' };
    return { ok: true, question: answered };
  });
  if (result.ok) {
    // T1: the turn waiting on this question, in whichever process, looks again.
    await deps.waits.notify(waitTopics.question(questionId));
    await redrawQuestionCard(deps, result.question, by.name);
    // T2, A9: a turn parked on it (its worker died while it waited) goes back to the queue.
    await resumeTurnAwaitingQuestion(deps, result.question);
  }
  return result;
}

/**
 * N13: the question stops waiting (the run was stopped or gave up); its card says so, and
 * (P15) who stopped the turn when a person did.
 */
export async function cancelQuestion(
  deps: QuestionDeps,
  question: QuestionRecord,
  stoppedBy: string | null = null,
): Promise<void> {
  const cancelled = await deps.store.inWorkspace(question.workspaceId, (tx) =>
    tx.questions.cancel(question.id),
  );
  if (cancelled) await redrawQuestionCard(deps, { ...question, status: 'cancelled' }, null, stoppedBy);
}

export async function redrawQuestionCard(
  deps: QuestionDeps,
  question: QuestionRecord,
  answeredBy: string | null,
  stoppedBy: string | null = null,
): Promise<void> {
  const found = await deps.store.inWorkspace(question.workspaceId, async (tx) => {
    const conversation = await tx.conversations.findById(question.conversationId);
    const run = await tx.runs.findById(question.runId);
    const asker =
      run === null
        ? undefined
        : (await tx.agents.list(question.workspaceId)).find((a) => a.id === run.agentId);
    return { conversation, asker };
  });
  const { conversation, asker } = found;
  if (conversation === null || asker === undefined) return;
  const platform = deps.platforms.get(conversation.platform);
  if (platform === undefined || conversation.threadId === null || question.platformCardRef === null) return;
  await platform.update(
    conversation.threadId,
    question.platformCardRef,
    questionMessage(question, asker, answeredBy, stoppedBy),
  );
}

/**
 * N13: an answer that lands between the card's post and its stored ref is recorded but finds
 * no card to redraw; once the ref is stored, the card is drawn as it now stands. (An answer
 * after the ref redraws the card itself.)
 */
export async function redrawIfSettledMeanwhile(deps: QuestionDeps, posted: QuestionRecord): Promise<void> {
  const settled = await deps.store.inWorkspace(posted.workspaceId, async (tx) => {
    const current = await tx.questions.findById(posted.id);
    if (current === null || current.status === 'pending') return null;
    const answerer =
      current.answeredByMemberId !== null
        ? (await tx.members.list(current.workspaceId)).find((m) => m.id === current.answeredByMemberId)
            ?.nickname
        : current.answeredByAgentId !== null
          ? (await tx.agents.list(current.workspaceId)).find((a) => a.id === current.answeredByAgentId)?.name
          : undefined;
    return { current, answeredBy: answerer ?? null };
  });
  if (settled !== null)
    await redrawQuestionCard(
      deps,
      { ...settled.current, platformCardRef: posted.platformCardRef },
      settled.answeredBy,
    );
}

/** N13: posts a system message in the conversation the asking agent's note came from. */
export async function tellAskingAgent(
  deps: AgentToolDeps,
  workspaceId: string,
  sourceConversationId: string,
  text: string,
): Promise<void> {
  const source = await deps.store.inWorkspace(workspaceId, (tx) =>
    tx.conversations.findById(sourceConversationId),
  );
  if (source !== null) await postSystemMessage(deps, source, text);
}
