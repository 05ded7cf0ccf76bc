import type { Refusable } from '../../model/card-action';
import { canStartWork } from '../../model/member';
import type { PlatformActor } from '../../ports/chat-engine';
import { recordAnswer } from '../agent-tools';
import { resolveActor } from '../routing/resolve-sender';
import type { ActionDeps } from './action-deps';

/**
 * N13: a person answers a question card; only members of the question's workspace whose role
 * may start work (P8) may. Refusals (not a member, already answered, no such option) carry the
 * sentence to show.
 */
export async function answerQuestion(
  deps: ActionDeps,
  questionId: string,
  answer: string,
  actor: PlatformActor,
): Promise<Refusable> {
  const found = await deps.store.transaction(async (tx) => {
    const question = await tx.questions.findById(questionId);
    const member = await resolveActor(tx, actor, deps.platforms);
    return { question, member };
  });
  const { question, member } = found;
  if (question === null) return { ok: false, reason: `There is no question ${questionId}.` };
  if (member === null || member.workspaceId !== question.workspaceId) {
    return { ok: false, reason: 'Only members of this workspace can answer its questions.' };
  }
  if (!canStartWork(member.role)) {
    return {
      ok: false,
      reason: `Your role (${member.role}) can read along but cannot answer an agent's question. An admin can change it.`,
    };
  }
  const result = await recordAnswer(deps, question.workspaceId, question.id, answer, {
    kind: 'member',
    id: member.id,
    name: member.nickname,
  });
  deps.logger.info({ questionId, ok: result.ok }, 'question answer');
  return result.ok ? { ok: true } : result;
}
