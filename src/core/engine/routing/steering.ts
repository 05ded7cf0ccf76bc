import type { AgentRecord, RunRecord } from '../../model/records';
import type { SteeringFeed } from '../../ports/runner';
import type { StoreTx } from '../../ports/store';
import { waitTopics } from '../../ports/wait-signals';
import type { RouteDeps, SteeringFeedDeps } from './routing-deps';
import type { WakeRunDeps } from './wake-run';

/** What routing knows when it asks whether a person's message steers a running turn. */
export interface SteeringCandidate {
  workspaceId: string;
  conversationId: string;
  messageId: string;
  whileRunning: 'steer' | 'queue';
  /** The agents the message names (M4, M5), and whether it is only mentions (M7). */
  mentionedAgentIds: readonly string[];
  mentionOnly: boolean;
  /** The agents routing would start (M1, M3, P3), for a thread where several turns run. */
  responders: readonly string[];
  agents: ReadonlyMap<string, AgentRecord>;
}

/**
 * P16, A9: a person's message in a thread where an agent's built-in turn is running, naming no
 * other agent, joins that turn instead of starting one: stored for its next tool boundary
 * (inside the routing's transaction, under the lane's lock), announced after the commit. With
 * several turns running, the message names the one it is for, or M3 chose it. The run it
 * joins, or null: routing goes on as without steering (`whileRunning: queue`, no such turn, a
 * CLI agent, another agent named).
 */
export async function steerRunningTurn(
  tx: StoreTx,
  deps: RouteDeps,
  candidate: SteeringCandidate,
): Promise<string | null> {
  const named = [...new Set(candidate.mentionedAgentIds)];
  if (candidate.whileRunning !== 'steer' || candidate.mentionOnly || named.length > 1) return null;
  const running = [
    ...new Set((await tx.steering.runningTurns(candidate.conversationId)).map((r) => r.agentId)),
  ];
  const target =
    named.length === 1
      ? running.find((id) => id === named[0])
      : running.length === 1
        ? running[0]
        : running.find((id) => id === candidate.responders[0]);
  const agent = target === undefined ? undefined : candidate.agents.get(target);
  // A9: only the built-in harness is steered; a CLI agent's message queues a turn.
  if (agent === undefined || deps.runners(agent).takesSteering !== true) return null;
  // Under the lane's lock: the turn cannot end between this look and the message stored for it.
  const run = await tx.steering.lockRunningTurn(agent.id, candidate.conversationId);
  if (run === null) return null;
  await tx.steering.add(candidate.workspaceId, {
    runId: run.id,
    messageId: candidate.messageId,
    at: deps.clock.now(),
  });
  return run.id;
}

/**
 * P16: a turn that ended before it took its steering messages leaves none behind: each starts
 * a turn of its own, as it would have without steering. Inside the transaction that ends the
 * run (the lane's lock first, so nothing joins it afterwards); the caller enqueues the runs.
 */
export function queueLeftoverSteering(
  tx: StoreTx,
  deps: Pick<RouteDeps, 'clock'>,
  run: RunRecord,
): Promise<string[]> {
  // T3: taken and queued by one statement (a person's run each, as `queuedRun` makes it), so
  // the finish needs no message after the leftovers are read.
  return tx.steering.queueLeftovers(run, deps.clock.now());
}

const ROW_TEXT_LENGTH = 120;

/** P16, N10: the status-card row of a message that joined the turn. */
export function steeredRow(from: string, text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  const shown = line.length > ROW_TEXT_LENGTH ? `${line.slice(0, ROW_TEXT_LENGTH - 1)}…` : line;
  return `↪ @${from}: ${shown}`;
}

/** Enqueues the turns `queueLeftoverSteering` stored, once its transaction committed. */
export async function enqueueLeftovers(deps: Pick<WakeRunDeps, 'queue'>, runIds: readonly string[]) {
  for (const runId of runIds) await deps.queue.enqueue({ id: runId, data: { runId } });
}

/**
 * P16, T1: the steering feed of a running turn. The store is read at a boundary only after an
 * announcement on `waitTopics.steering` (or when announcements may have been missed): once
 * at the start, since a message may have come before the subscription.
 */
export async function openSteeringFeed(
  deps: SteeringFeedDeps,
  run: Pick<RunRecord, 'id' | 'workspaceId'>,
): Promise<SteeringFeed & { close(): void }> {
  let announced = true;
  const unsubscribe = await deps.waits.subscribe(waitTopics.steering(run.id), () => {
    announced = true;
  });
  return {
    async pending() {
      if (!announced) return [];
      announced = false;
      const found = await deps.store.inWorkspace(run.workspaceId, (tx) => tx.steering.pending(run.id));
      return found.map((m) => ({ id: m.id, from: m.from, text: m.text }));
    },
    close: unsubscribe,
  };
}
