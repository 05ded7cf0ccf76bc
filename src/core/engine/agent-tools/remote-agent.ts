import type { GuardrailAction } from '../../model/guardrail';
import type { PromptResponse, WaitResponse } from '../../model/relays/relay-protocol';
import type { RelayCall, RelayClient } from '../../ports/relay-client';
import { parseAgentAddress, qualifiedName } from '../../relays/relay-address';
import { checkRelayChain } from '../../relays/relay-chain';
import type { HandoffTool } from '../../tools/handoff-limits';
import type { AgentToolContext } from './agent-tool-context';

/** One long-poll of the other relay; the whole wait is bounded by the tool's own timeout. */
const WAIT_SLICE_MS = 25_000;

export interface RemoteTarget {
  agent: string;
  relay: string;
  client: RelayClient;
}

/**
 * R2: `agent@relay` (or the `relay` argument) names an agent of a paired relay; null when the
 * target is on this relay (no relay named, or this relay's own name).
 */
export function remoteTargetOf(
  ctx: AgentToolContext,
  input: { agent: string; relay?: string | undefined },
): RemoteTarget | { refused: string } | null {
  const address = parseAgentAddress(input.agent, input.relay);
  if (address.relay === null) return null;
  const client = ctx.deps.relays;
  const own = client?.relayName ?? ctx.deps.relayName;
  if (own !== null && own !== undefined && address.relay.toLowerCase() === own.toLowerCase()) return null;
  if (client === undefined) {
    return {
      refused: `This relay is paired with no other relay, so ${address.agent}@${address.relay} cannot be reached (an operator pairs relays with \`summon relays pair\`).`,
    };
  }
  return { agent: address.agent, relay: address.relay, client };
}

/**
 * G1, N13: a call that reaches an agent of another relay goes over the network to another
 * deployment: it is the `network` action, so a guardrail may make it ask a person first (the
 * approval card is answered by a person only, G4). A call inside this relay is not gated.
 */
export function relayCallActions(
  ctx: AgentToolContext,
  input: { agent: string; relay?: string | undefined },
): GuardrailAction[] {
  const target = remoteTargetOf(ctx, input);
  return target === null || 'refused' in target ? [] : ['network'];
}

/**
 * R2, R3, M20: sends the note to the paired relay, with the chain so far as `agent@relay`
 * names (the part that came from other relays, carried by this turn's note, then this relay's
 * part) and the caller's depth; the sender checks the chain first, the receiver again.
 */
export async function sendRemote(
  ctx: AgentToolContext,
  tool: HandoffTool,
  target: RemoteTarget,
  text: string,
  space: string | undefined,
): Promise<RelayCall<PromptResponse>> {
  const { deps, turn } = ctx;
  const workspaceId = turn.agent.workspaceId;
  const own = target.client.relayName;
  const { caller, chain } = await deps.store.inWorkspace(workspaceId, async (tx) => {
    const run = await tx.runs.findById(turn.runId);
    const trigger = run?.triggerMessageId ? await tx.messages.findById(run.triggerMessageId) : null;
    const agents = await tx.agents.list(workspaceId);
    const nameOf = (id: string) => agents.find((a) => a.id === id)?.name ?? id;
    const prefix = trigger?.note?.remote?.chain ?? [];
    const local = [...(run?.wakeChain ?? []), turn.agent.id]
      .map((id) => qualifiedName(nameOf(id), own))
      .filter((name, i, all) => all.indexOf(name) === i && !prefix.includes(name));
    return { caller: run, chain: [...prefix, ...local] };
  });
  if (caller === null) return { ok: false, reason: `${tool} failed: this turn is no longer recorded.` };
  const checked = checkRelayChain({
    tool,
    chain,
    depth: caller.depth,
    target: { agent: target.agent, relay: target.relay },
  });
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const sent = await target.client.prompt(workspaceId, target.relay, {
    agent: target.agent,
    text,
    space: space ?? null,
    sender: {
      agent: turn.agent.name,
      model: turn.agent.modelId ?? target.client.defaultModel,
      session: { title: turn.conversation.title, url: target.client.sessionUrl(turn.conversation.id) },
    },
    chain,
    depth: caller.depth,
  });
  deps.logger.info(
    {
      component: 'relays',
      runId: turn.runId,
      tool,
      relay: target.relay,
      target: target.agent,
      sent: sent.ok,
    },
    sent.ok ? 'handed off to an agent of a paired relay' : 'a paired relay did not take the note',
  );
  return sent.ok ? sent : { ok: false, reason: `${tool} refused by relay ${target.relay}: ${sent.reason}` };
}

export type RemoteWait =
  | { state: 'answered'; response: WaitResponse }
  | { state: 'timeout' }
  | { state: 'aborted' }
  | { state: 'unreachable'; reason: string };

/**
 * N11, N13, T1: waits for the remote turn to end or to ask a question, by long-polls the other
 * relay answers when its run ends (it is woken there, never a poll of ours on a timer); the
 * turn gives its slot back meanwhile.
 */
export async function awaitRemote(
  ctx: AgentToolContext,
  target: RemoteTarget,
  promptId: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<RemoteWait> {
  const { deps, turn } = ctx;
  const deadline = deps.clock.now().getTime() + timeoutMs;
  return deps.slots.suspendWhile(turn.runId, async (): Promise<RemoteWait> => {
    for (;;) {
      if (signal.aborted) return { state: 'aborted' };
      const left = deadline - deps.clock.now().getTime();
      if (left <= 0) return { state: 'timeout' };
      const answer = await target.client.wait(
        turn.agent.workspaceId,
        target.relay,
        { prompt: promptId, waitMs: Math.min(WAIT_SLICE_MS, Math.ceil(left)) },
        signal,
      );
      if (signal.aborted) return { state: 'aborted' };
      if (!answer.ok) return { state: 'unreachable', reason: answer.reason };
      if (answer.value.state !== 'working' || answer.value.questions.length > 0)
        return { state: 'answered', response: answer.value };
    }
  });
}

/** N11, N13: the tool result for what the remote turn did. */
export function remoteOutcome(
  target: RemoteTarget,
  wait: RemoteWait,
  timeoutMs: number,
): { ok: boolean; output: string } {
  const who = `${target.agent} on relay ${target.relay}`;
  switch (wait.state) {
    case 'aborted':
      return { ok: false, output: `Your turn was stopped while waiting for ${who}.` };
    case 'unreachable':
      return { ok: false, output: `${who} could not be asked how it is doing: ${wait.reason}` };
    case 'timeout':
      return {
        ok: false,
        output: `${who} has not replied within ${Math.round(timeoutMs / 1000)} s; its reply will appear in its conversation there. Tell the people you are still waiting.`,
      };
    case 'answered': {
      const { response } = wait;
      if (response.state === 'succeeded')
        return { ok: true, output: `${who} replied:\n${response.reply ?? ''}` };
      if (response.state === 'failed')
        return {
          ok: false,
          output: `${who}'s turn failed without a reply: ${response.error ?? 'it failed'}`,
        };
      const questions = response.questions
        .map(
          (q) =>
            `${who} is waiting for an answer to question ${q.id}: ${q.text}${q.options.length > 0 ? ` Options: ${q.options.map((o, i) => `${i + 1}. ${o}`).join(' ')}` : ''}`,
        )
        .join('\n');
      return {
        ok: true,
        output: `${questions}\nPeople there can answer it; if this relay is paired with full access, answer_question (id and relay "${target.relay}") can, and its reply then comes back as that tool's result.`,
      };
    }
  }
}
