import { ALL_MODES, defineTool } from '../../tools/tool-definition';
import { duration } from '../../wake/wake-messages';
import { type AgentToolContext, markAwaiting, takeResumedWait } from './agent-tool-context';
import { awaitRun } from './await-run';
import { handOff, resumedHandOff } from './hand-off';
import { awaitRemote, relayCallActions, remoteOutcome, remoteTargetOf, sendRemote } from './remote-agent';
import { handoffInput } from './send-to-agent-tool';

/**
 * M23, N11: like send_to_agent, then waits for the target's reply and returns it as the tool
 * result; after the timeout it returns what is known. While it waits the run is `blocked`.
 */
export const askAgentTool = (ctx: AgentToolContext) =>
  defineTool({
    name: 'ask_agent',
    description:
      'Ask another agent of this workspace something and wait for its reply, which comes back as this tool result. Write a self-contained question; it sees only what you send.',
    input: handoffInput,
    access: 'read',
    modes: ALL_MODES,
    // G1, N13: an agent of another relay is reached over the network (a guardrail may ask first).
    classify: (input) => relayCallActions(ctx, input),
    run: async (input, _scope, signal) => {
      // R2, N11: an agent of a paired relay is asked there; its reply comes back here.
      const remote = remoteTargetOf(ctx, input);
      if (remote !== null) {
        if ('refused' in remote) return { ok: false, output: remote.refused };
        const sent = await sendRemote(ctx, 'ask_agent', remote, input.text, input.space);
        if (!sent.ok) return { ok: false, output: sent.reason };
        await markAwaiting(ctx, true);
        try {
          const wait = await awaitRemote(ctx, remote, sent.value.prompt, ctx.timings.askTimeoutMs, signal);
          return remoteOutcome(remote, wait, ctx.timings.askTimeoutMs);
        } finally {
          await markAwaiting(ctx, false);
        }
      }
      // T2, A9: a turn resumed after its worker died waits on the run it had started.
      const resumed = takeResumedWait(ctx, 'run');
      const until = resumed?.until ?? new Date(ctx.deps.clock.now().getTime() + ctx.timings.askTimeoutMs);
      const asked =
        resumed === null
          ? await handOff(ctx, {
              tool: 'ask_agent',
              agent: input.agent,
              text: input.text,
              ...(input.space === undefined ? {} : { space: input.space }),
              awaitsUntil: until,
            })
          : await resumedHandOff(ctx, resumed);
      if (!asked.ok) return { ok: false, output: asked.reason };
      const name = asked.target.name;
      await markAwaiting(ctx, true);
      try {
        const outcome = await awaitRun(ctx, { runId: asked.runId }, until, signal);
        switch (outcome.state) {
          case 'succeeded':
            return { ok: true, output: `${name} replied:\n${outcome.reply}` };
          case 'failed':
            return { ok: false, output: `${name}'s turn failed without a reply: ${outcome.error}` };
          case 'aborted':
            return { ok: false, output: `Your turn was stopped while waiting for ${name}'s reply.` };
          case 'timeout': {
            // N13: what it waits for itself, so the asking agent can answer it.
            const pending = await ctx.deps.store.inWorkspace(ctx.turn.agent.workspaceId, (tx) =>
              tx.questions.listPending(asked.conversationId),
            );
            const questions = pending
              .filter((q) => q.runId === asked.runId)
              .map(
                (q) =>
                  ` It is waiting for an answer to question ${q.id}: ${q.text} (answer_question can answer it).`,
              )
              .join('');
            return {
              ok: false,
              output: `${name} has not replied within ${duration(ctx.timings.askTimeoutMs)} (its turn is ${outcome.status}); the question is in ${asked.where}, and its reply will appear there.${questions} Tell the people you are still waiting.`,
            };
          }
        }
      } finally {
        await markAwaiting(ctx, false);
      }
    },
  });
