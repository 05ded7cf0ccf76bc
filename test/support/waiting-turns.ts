import { z } from 'zod';
import type { ThreadEntry } from '../../src/bots/terminal';
import type { ToolOutcome } from '../../src/core/ports/turn-tools';
import { defineTool } from '../../src/core/tools/tool-definition';
import type { Script } from './scripted-runner';

/**
 * T1 scenarios: a `release` tool the guardrails classify as `commit` (so, with
 * COMMITS_ASK_FIRST, every call waits on an approval card) that records what it released.
 */
export function releaseTool(released: string[]) {
  return defineTool({
    name: 'release',
    description: 'Release a tag.',
    input: z.object({ tag: z.string().min(1) }),
    access: 'write',
    modes: ['chat'],
    classify: () => ['commit'],
    run: async (input): Promise<ToolOutcome> => {
      released.push(input.tag);
      return { ok: true, output: `released ${input.tag}` };
    },
  });
}

/**
 * A turn as a model would take it: "release X" calls `release` (an approval), "question X"
 * calls `ask_question` (a question card), anything else answers "hello" at once. The reply
 * repeats the tool's outcome.
 */
export const waitingScript: Script = async function* (request) {
  const release = /release (\S+)/.exec(request.prompt)?.[1];
  const question = /question (\S+)/.exec(request.prompt)?.[1];
  if (release === undefined && question === undefined) {
    yield { type: 'final', text: 'hello' };
    return;
  }
  const call =
    release !== undefined
      ? { callId: 'c1', name: 'release', input: { tag: release } }
      : {
          callId: 'c1',
          name: 'ask_question',
          input: { text: `Which way for ${question}?`, options: ['left', 'right'] },
        };
  yield { type: 'tool_start', callId: 'c1', tool: call.name, summary: call.name };
  const outcome = await request.tools.call(call, request.signal);
  if (request.signal.aborted) return; // stopped: a model call would be aborted too
  yield { type: 'tool_end', callId: 'c1', ok: outcome.ok };
  yield { type: 'final', text: `${release ?? question}: ${outcome.output}` };
};

/** The approval and question cards on screen, latest state (cards are edited in place). */
export function cardsOf(threads: readonly { entries: readonly ThreadEntry[] }[]) {
  const approvals: { id: string; status: string }[] = [];
  const questions: { id: string; status: string }[] = [];
  for (const thread of threads) {
    for (const entry of thread.entries) {
      if (entry.kind !== 'posted') continue;
      const { content } = entry.message;
      if (content.kind === 'approval')
        approvals.push({ id: content.card.approvalId, status: content.card.status });
      if (content.kind === 'question')
        questions.push({ id: content.card.questionId, status: content.card.status });
    }
  }
  return { approvals, questions };
}
