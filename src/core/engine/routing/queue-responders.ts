import { randomUUID } from 'node:crypto';
import type { StoreTx } from '../../ports/store';
import type { RunJob } from '../run-job';
import { queuedRun } from './queued-run';
import type { RouteDeps } from './routing-deps';

/** The message that starts the runs, and where. */
export interface Trigger {
  workspaceId: string;
  spaceId: string;
  conversationId: string;
  messageId: string;
  memberId: string;
}

/**
 * M1, M8: one queued run per responder, started by the person's message (M20: depth 1). T3:
 * each run is given its id here and inserted with the commit (nothing reads it back); its job
 * names its lane, so it can start in this process without reading the run first.
 */
export async function queueResponders(
  tx: StoreTx,
  deps: Pick<RouteDeps, 'clock'>,
  trigger: Trigger,
  responders: readonly string[],
): Promise<RunJob[]> {
  const { workspaceId, spaceId, conversationId } = trigger;
  const jobs: RunJob[] = [];
  for (const agentId of responders) {
    const runId = randomUUID();
    const run = queuedRun(
      {
        workspaceId,
        agentId,
        conversationId,
        triggerMessageId: trigger.messageId,
        createdAt: deps.clock.now(),
      },
      { by: 'person', memberId: trigger.memberId },
    );
    await tx.runs.insertOwed({ ...run, id: runId });
    jobs.push({ runId, lane: { workspaceId, agentId, conversationId, spaceId } });
  }
  return jobs;
}
