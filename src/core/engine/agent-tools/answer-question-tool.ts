import { z } from 'zod';
import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import type { AgentToolContext } from './agent-tool-context';
import { recordAnswer } from './questions';
import { relayCallActions } from './remote-agent';
import { answerRemote } from './remote-answer';

/** The tool's input (built once: T3, its JSON Schema is derived once per process). */
const answerQuestionInput = z.object({
  id: z.string().min(1).describe('The question id.'),
  answer: z.string().min(1).describe('An option number (from 1) or the answer in words.'),
  relay: z
    .string()
    .min(1)
    .optional()
    .describe('Optional: the paired relay where the question was asked (its agent told you so).'),
});

/**
 * N13: another agent of this workspace answers a pending question, never one of its own
 * conversation (there, people answer); the refusal is a sentence.
 */
export const answerQuestionTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'answer_question',
    description:
      'Answer a pending question another agent asked (its id is in the message that told you about it): an option number or your own words.',
    input: answerQuestionInput,
    access: 'read',
    modes: ALL_MODES,
    // G1, N13: a question on another relay is answered there, over the network.
    classify: (input) =>
      input.relay === undefined
        ? []
        : relayCallActions(ctx, { agent: `someone@${input.relay}`, relay: input.relay }),
    run: async (input, _scope, signal) => {
      const { deps, turn } = ctx;
      // N13, R1: a question on a paired relay is answered there (it checks the level is `full`).
      if (input.relay !== undefined)
        return answerRemote(ctx, input.relay, input.id.trim(), input.answer, signal);
      const result = await recordAnswer(
        deps,
        turn.agent.workspaceId,
        input.id.trim(),
        input.answer,
        { kind: 'agent', id: turn.agent.id, name: turn.agent.name },
        async (question) =>
          question.conversationId === turn.conversation.id
            ? 'answer_question refused: that question was asked in your own conversation, where the people answer it; an agent cannot answer a question of its own conversation.'
            : null,
      );
      if (!result.ok) return { ok: false, output: result.reason };
      return { ok: true, output: `Answered: ${result.question.answer ?? ''}` };
    },
  });
