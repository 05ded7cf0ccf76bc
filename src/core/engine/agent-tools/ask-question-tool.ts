import { z } from 'zod';
import type { QuestionRecord } from '../../model/question-record';
import { waitTopics } from '../../ports/wait-signals';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import { postInConversation } from '../post-in-conversation';
import { stoppedByOf } from '../stop-run';
import { waitSuspended } from '../suspended-wait';
import { type AgentToolContext, setWaiting } from './agent-tool-context';
import { cancelQuestion, questionMessage, tellAskingAgent } from './questions';

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
    input: z.object({
      text: z.string().min(1).describe('The question.'),
      options: z
        .array(z.string().min(1))
        .max(10)
        .optional()
        .describe('Optional choices, shown numbered from 1.'),
    }),
    access: 'read',
    modes: ALL_MODES,
    classify: () => [],
    run: async (input, _scope, signal) => {
      const { deps, turn } = ctx;
      const workspaceId = turn.agent.workspaceId;
      const { question, trigger } = await deps.store.inWorkspace(workspaceId, async (tx) => {
        const run = await tx.runs.findById(turn.runId);
        const stored = await tx.questions.insert(workspaceId, {
          runId: turn.runId,
          conversationId: turn.conversation.id,
          text: input.text,
          options: input.options ?? [],
        });
        const note = run?.triggerMessageId ? await tx.messages.findById(run.triggerMessageId) : null;
        return { question: stored, trigger: note };
      });
      const ref = await postInConversation(
        deps,
        turn.conversation,
        { kind: 'question', id: question.id },
        questionMessage(question, turn.agent, null),
      );
      const posted: QuestionRecord = ref === null ? question : { ...question, platformCardRef: ref };
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

      await setWaiting(ctx, true);
      try {
        // T1: the turn gives its slot back and is woken by the answer (a card, a reply in the
        // thread, answer_question), in whichever process it is given.
        const outcome = await waitSuspended(deps, turn.runId, {
          topic: waitTopics.question(posted.id),
          until: new Date(deps.clock.now().getTime() + ctx.timings.questionTimeoutMs),
          signal,
          check: async () => {
            const current = await deps.store.inWorkspace(workspaceId, (tx) =>
              tx.questions.findById(posted.id),
            );
            return current?.status === 'pending' ? null : { current };
          },
        });
        if (outcome.state === 'aborted') {
          // P15: a person's Stop ends the wait; the card says who stopped the turn.
          await cancelQuestion(deps, posted, await stoppedByOf(deps, turn.runId, workspaceId));
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
        await setWaiting(ctx, false);
      }
    },
  });
