import type { AgentToolContext } from './agent-tool-context';
import { markAwaiting } from './agent-tool-context';
import { awaitRemote, remoteOutcome, remoteTargetOf } from './remote-agent';

/**
 * N13, R1: an agent answers a question of a turn on a paired relay, which its note started
 * there; only a pairing at `full` may (the other relay refuses otherwise, with the sentence).
 * Then it waits on that turn again, so the reply (or the next question) is this tool's result.
 */
export async function answerRemote(
  ctx: AgentToolContext,
  relay: string,
  questionId: string,
  answer: string,
  signal: AbortSignal,
): Promise<{ ok: boolean; output: string }> {
  const target = remoteTargetOf(ctx, { agent: `someone@${relay}`, relay });
  if (target === null)
    return { ok: false, output: `${relay} is this relay: answer without the relay argument.` };
  if ('refused' in target) return { ok: false, output: target.refused };
  const answered = await target.client.answer(ctx.turn.agent.workspaceId, target.relay, {
    question: questionId,
    answer,
    by: ctx.turn.agent.name,
  });
  if (!answered.ok)
    return { ok: false, output: `answer_question refused by relay ${relay}: ${answered.reason}` };
  await markAwaiting(ctx, true);
  try {
    const wait = await awaitRemote(ctx, target, answered.value.prompt, ctx.timings.askTimeoutMs, signal);
    const outcome = remoteOutcome({ ...target, agent: 'its agent' }, wait, ctx.timings.askTimeoutMs);
    return { ok: outcome.ok, output: `Answered: ${answered.value.answer}\n${outcome.output}` };
  } finally {
    await markAwaiting(ctx, false);
  }
}
