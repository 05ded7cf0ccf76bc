import type { PairRateLimit, PairRateLimiter } from '../ports/pair-rate-limiter';
import { distinctNames, distinctOthers, type MentionedAgent, type ReplyMentions } from './reply-mentions';
import { chainOfReplier, describeChain, extendChain } from './wake-chain';
import { MAX_AGENTS_PER_REPLY, MAX_WAKE_DEPTH } from './wake-limits';
import {
  ambiguousMessage,
  at,
  cycleMessage,
  depthMessage,
  rateMessage,
  tooManyMessage,
} from './wake-messages';
import type { WakeRejection } from './wake-rejection';

/** How the replying turn ended. Only a clean end wakes anyone (M14). */
export type TurnOutcome = 'succeeded' | 'failed' | 'interrupted';

export interface PlanWakesInput {
  outcome: TurnOutcome;
  /** The agent that wrote the reply. */
  replier: MentionedAgent;
  /** M20: the replying run's wake chain, oldest first, ending with the replier. */
  chain: readonly string[];
  /** M20: the replying run's depth; a person's message starts depth 1. */
  depth: number;
  mentions: ReplyMentions;
  workspaceId: string;
  now: Date;
  /** Names of chain agents for the messages; the id is shown when a name is unknown. */
  agentName?: (agentId: string) => string | undefined;
  /** The limit the rate limiter enforces, stated in M21's message when given. */
  rateLimit?: PairRateLimit;
}

/** A run to start: the mentioned agent, one hop deeper, with the chain that led to it. */
export interface PlannedWake {
  agentId: string;
  name: string;
  depth: number;
  chain: string[];
}

export interface WakePlan {
  wakes: PlannedWake[];
  /** M21: one system message each, in the order of the mentions; ambiguous names last. */
  rejections: WakeRejection[];
}

/**
 * Decides which agents an agent's reply wakes (M14, M15, M19–M22). Pure apart from the
 * rate limiter, which is consulted only for wakes that passed every other check, one at a
 * time in mention order, so a rejected wake never uses up the pair's budget.
 */
export async function planWakes(input: PlanWakesInput, rateLimiter: PairRateLimiter): Promise<WakePlan> {
  // M14: a failed or interrupted turn wakes nobody and posts nothing.
  if (input.outcome !== 'succeeded') return { wakes: [], rejections: [] };

  const { replier, mentions } = input;
  const chain = chainOfReplier(input.chain, replier.agentId);
  const named = distinctOthers(mentions.agents, replier.agentId); // M22
  const nameOf = nameLookup(input, named);
  const chainText = describeChain(chain, nameOf);

  const wakes: PlannedWake[] = [];
  const rejections: WakeRejection[] = [];

  if (named.length > MAX_AGENTS_PER_REPLY) {
    // M19: a list, not a summons. One message for the whole reply.
    const names = named.map((agent) => agent.name);
    rejections.push({
      mention: names.map(at).join(', '),
      reason: 'too_many',
      message: tooManyMessage(names),
      agentIds: named.map((agent) => agent.agentId),
    });
  } else {
    const depth = input.depth + 1;
    for (const agent of named) {
      const reject = (reason: WakeRejection['reason'], message: string) =>
        rejections.push({ mention: at(agent.name), reason, message, agentIds: [agent.agentId] });

      // M20: a cycle is checked before depth; it is about this agent, not the whole chain.
      if (chain.includes(agent.agentId)) reject('cycle', cycleMessage(agent.name, chainText));
      else if (depth > MAX_WAKE_DEPTH) reject('depth', depthMessage(agent.name, input.depth, chainText));
      else if (!(await rateLimiter.tryAcquire(input.workspaceId, replier.agentId, agent.agentId, input.now)))
        reject('rate', rateMessage(agent.name, replier.name, input.rateLimit));
      else
        wakes.push({
          agentId: agent.agentId,
          name: agent.name,
          depth,
          chain: extendChain(chain, agent.agentId),
        });
    }
  }

  // M15: a name two agents share reaches nobody, and is reported (M21).
  for (const name of distinctNames(mentions.ambiguous)) {
    rejections.push({
      mention: at(name),
      reason: 'ambiguous',
      message: ambiguousMessage(name),
      agentIds: [],
    });
  }

  return { wakes, rejections };
}

function nameLookup(input: PlanWakesInput, named: readonly MentionedAgent[]): (agentId: string) => string {
  const known = new Map<string, string>(named.map((agent) => [agent.agentId, agent.name]));
  known.set(input.replier.agentId, input.replier.name);
  return (agentId) => input.agentName?.(agentId) ?? known.get(agentId) ?? agentId;
}
