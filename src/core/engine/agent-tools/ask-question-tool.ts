import { z } from 'zod';
import type { QuestionRecord } from '../../model/question-record';
import { waitTopics } from '../../ports/wait-signals';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import { postInConversation } from '../cards/post-in-conversation';
import { stoppedByOf } from '../stop/stop-run';
import { awaitWithoutSlot } from '../waits/await-without-slot';
import { type AgentToolContext, markAwaiting, recordAwaits, takeResumedWait } from './agent-tool-context';
import { cancelQuestion, questionMessage, redrawIfSettledMeanwhile, tellAskingAgent } from './questions';

/** The tool's input (built once: T3, its JSON Schema is derived once per process). */
const askQuestionInput = z.object({
  text: z.string().min(1).describe('The question.'),
  options: z.array(z.string().min(1)).max(10).optional().describe('Optional choices, shown numbered from 1.'),
});

/**
 * N13: a question card in this conversation; the run waits for the answer (a person's, or
 * another agent's through answer_question). While answering an agent's note, the asking
 * agent is told too, in the conversation its note came from.
 */
export const askQuestionTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'ask_question',
    description:
      'Ask the people in this conversation a question and wait for the answer. Offer options when there are clear choices. Ask people first unless you were told to decide.',
    input: askQuestionInput,
    access: 'read',
    modes: ALL_MODES,
    classify: () => [],
    run: async (input, _scope, signal) => {
      const { deps, turn } = ctx;
      const workspaceId = turn.agent.workspaceId;
      // T2, A9: a turn resumed after its worker died waits on the card it had posted.
      const resumed = takeResumedWait(ctx, 'question');
      const asked =
        resumed === null ? await askNew(ctx, input) : await resumedQuestion(ctx, resumed.id, resumed.until);
      if (asked === null) return { ok: false, output: 'ask_question failed: the question is gone.' };
      const { posted, until, recorded } = asked;

      await markAwaiting(ctx, true);
      try {
        // T1: the turn gives its slot back and is woken by the answer (a card, a reply in the
        // thread, answer_question), in whichever process it is given.
        const outcome = await awaitWithoutSlot(deps, turn.runId, {
          topic: waitTopics.question(posted.id),
          ...(until === null ? {} : { until }),
          signal,
          check: async () => {
            const current = await deps.store.inWorkspace(workspaceId, (tx) =>
              tx.questions.findById(posted.id),
            );
            return current?.status === 'pending' ? null : { current };
          },
        });
        if (outcome.state === 'aborted') {
          // T2: a worker that stops (SIGTERM) hands a checkpointed turn back: its resumed call
          // waits on this same card. A person's Stop (P15), or a turn that cannot resume, cancels
          // it, and the card says who stopped the turn.
          const stoppedBy = await stoppedByOf(deps, turn.runId, workspaceId);
          if (!recorded || stoppedBy !== null) await cancelQuestion(deps, posted, stoppedBy);
          return { ok: false, output: 'Your turn was stopped while waiting for the answer.' };
        }
        const current = outcome.state === 'ready' ? outcome.value.current : null;
        if (current?.status === 'answered') return { ok: true, output: `Answer: ${current.answer ?? ''}` };
        await cancelQuestion(deps, posted);
        return {
          ok: false,
          output: 'Nobody answered the question in time. Decide sensibly yourself and say what you decided.',
        };
      } finally {
        await markAwaiting(ctx, false);
      }
    },
  });

type AskInput = { text: string; options?: string[] | undefined };
interface Asked {
  posted: QuestionRecord;
  until: Date | null;
  /** T2: the wait is on the turn's checkpoint (a built-in runner's turn, which can resume). */
  recorded: boolean;
}

/** N13: the question stored (and, T2, recorded on the checkpoint in the same transaction) and posted. */
async function askNew(ctx: AgentToolContext, input: AskInput): Promise<Asked> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const until = new Date(deps.clock.now().getTime() + ctx.timings.questionTimeoutMs);
  const { question, trigger, recorded } = await deps.store.inWorkspace(workspaceId, async (tx) => {
    const run = await tx.runs.findById(turn.runId);
    const stored = await tx.questions.insert(workspaceId, {
      runId: turn.runId,
      conversationId: turn.conversation.id,
      text: input.text,
      options: input.options ?? [],
    });
    const note = run?.triggerMessageId ? await tx.messages.findById(run.triggerMessageId) : null;
    const recorded = await recordAwaits(tx, ctx, { kind: 'question', id: stored.id, until });
    return { question: stored, trigger: note, recorded };
  });
  const ref = await postInConversation(
    deps,
    turn.conversation,
    { kind: 'question', id: question.id },
    questionMessage(question, turn.agent, null),
  );
  const posted: QuestionRecord = ref === null ? question : { ...question, platformCardRef: ref };
  if (ref !== null) await redrawIfSettledMeanwhile(deps, posted);
  // N13: working on an agent's note, the asking agent is told too.
  const source = trigger?.note;
  if (source?.sourceConversationId) {
    const options = posted.options.map((o, i) => `${i + 1}. ${o}`).join(' ');
    await tellAskingAgent(
      deps,
      workspaceId,
      source.sourceConversationId,
      `${turn.agent.name} asks about your note (question ${posted.id}): ${posted.text}${options === '' ? '' : ` Options: ${options}`} — people there can answer it, or an agent with answer_question.`,
    );
  }
  // N13, R2: an agent of a paired relay waiting on this turn learns of the question now.
  if (trigger?.note?.remote !== undefined) await deps.waits.notify(waitTopics.run(turn.runId));
  return { posted, until, recorded };
}

/**
 * T2, A9: the question a resumed call had asked, as stored (its card is up already), recorded
 * on the checkpoint again (the resumed turn's boundary cleared it), so another restart waits on
 * it too.
 */
async function resumedQuestion(
  ctx: AgentToolContext,
  questionId: string,
  until: Date | null,
): Promise<Asked | null> {
  return ctx.deps.store.inWorkspace(ctx.turn.agent.workspaceId, async (tx) => {
    const found = await tx.questions.findById(questionId);
    if (found === null) return null;
    const recorded = await recordAwaits(tx, ctx, { kind: 'question', id: questionId, until });
    return { posted: found, until, recorded };
  });
}

/** P15: the turn was stopped by a person (not handed back by a stopping worker). */
