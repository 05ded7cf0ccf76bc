import { randomUUID } from 'node:crypto';
import type { StoreTx } from '../../ports/store';
import type { RunJob } from '../run-job';
import { claimedRun, queuedRun } from './queued-run';
import type { RouteDeps } from './routing-deps';

/** The message that starts the runs, and where. */
export interface Trigger {
  workspaceId: string;
  spaceId: string;
  conversationId: string;
  messageId: string;
  memberId: string;
  /** The conversation was made by this routing's transaction: its lanes have no run yet. */
  fresh: boolean;
}

/**
 * M1, M8: one run per responder, started by the person's message (M20: depth 1). T3: each run
 * is given its id here and inserted with the commit (nothing reads it back); its job names its
 * lane, so it can start in this process without reading the run first. In a thread this
 * transaction made, a run this process can start at once (a slot held for it) is stored
 * claimed, `running`, and its turn's reads go with the routing: its turn starts after the
 * commit without a claim of its own (one transaction fewer). Nothing else can be in its lane:
 * no other transaction knows the conversation yet.
 */
export async function queueResponders(
  tx: StoreTx,
  deps: Pick<RouteDeps, 'clock' | 'localLanes'>,
  trigger: Trigger,
  responders: readonly string[],
): Promise<RunJob[]> {
  const { workspaceId, spaceId, conversationId } = trigger;
  const jobs: RunJob[] = [];
  for (const agentId of responders) {
    const runId = randomUUID();
    const now = deps.clock.now();
    const queued = Object.assign(
      queuedRun(
        { workspaceId, agentId, conversationId, triggerMessageId: trigger.messageId, createdAt: now },
        { by: 'person', memberId: trigger.memberId },
      ),
      { id: runId },
    );
    const lanes = trigger.fresh ? deps.localLanes : undefined;
    const claimed = lanes?.holdForRouting(tx, runId) === true;
    if (claimed) {
      const run = claimedRun(queued, now);
      await tx.runs.insertOwed(run);
      lanes?.readWithRouting(tx, run);
    } else await tx.runs.insertOwed(queued);
    const lane = { workspaceId, agentId, conversationId, spaceId };
    jobs.push(claimed ? { runId, lane, claimedAt: now.getTime() } : { runId, lane });
  }
  return jobs;
}
