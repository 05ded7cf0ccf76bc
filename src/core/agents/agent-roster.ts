import { NotFoundError } from '../errors';
import type { AgentView } from '../model/agent-view';
import type { Store } from '../ports/store';
import { deriveLiveStatus } from './live-status';
import { derivePresence, type RunActivity } from './presence';

/**
 * A13: what the events of a run in progress showed in this process (`RunActivityBoard`); runs of
 * other workers are judged from the store.
 */
export type RunActivityLookup = (runId: string) => RunActivity | null;

const FAR_FUTURE = new Date(8.64e15);

/** Enough recent runs per agent to see every run in progress and the last one that ended. */
const RUNS_PER_AGENT = 20;

/**
 * The agents of a workspace with their live status (A12), read inside a workspace-scoped
 * transaction so row-level security applies (A2).
 */
export async function listAgentViews(
  store: Store,
  workspaceSlug: string,
  activityOf: RunActivityLookup = () => null,
): Promise<AgentView[]> {
  const workspace = await store.transaction((tx) => tx.workspaces.findBySlug(workspaceSlug));
  if (workspace === null) {
    throw new NotFoundError(
      `no workspace "${workspaceSlug}"; create it with \`summon workspace create ${workspaceSlug}\``,
    );
  }
  return store.inWorkspace(workspace.id, async (tx) => {
    const agents = await tx.agents.list(workspace.id);
    const runs = await tx.runs.recentForAgents(
      workspace.id,
      agents.map((a) => a.id),
      RUNS_PER_AGENT,
    );
    // G4, A13: the runs an approval waits on (pending, whatever its deadline).
    const awaiting = new Set(
      (await tx.approvals.listPendingDue(FAR_FUTURE))
        .filter((a) => a.workspaceId === workspace.id)
        .map((a) => a.runId),
    );
    // T2, A13: the runs (of whichever worker) whose checkpoint has a tool call in flight.
    const running = runs.filter((run) => run.status === 'running').map((run) => run.id);
    const calling = new Set(running.length === 0 ? [] : await tx.checkpoints.listCallsInFlight(running));
    const nameOf = new Map(agents.map((a) => [a.id, a.name]));
    return agents.map((agent) => {
      const own = runs.filter((run) => run.agentId === agent.id);
      const lastRunAt = own.reduce<Date | null>(
        (last, run) => (last && last > run.createdAt ? last : run.createdAt),
        null,
      );
      return {
        agent,
        reportsTo: agent.reportsToId === null ? null : (nameOf.get(agent.reportsToId) ?? null),
        status: deriveLiveStatus(own),
        presence: derivePresence(
          own.map((run) => ({
            status: run.status,
            liveness: run.liveness,
            activity: activityOf(run.id),
            awaitingApproval: awaiting.has(run.id),
            callInFlight: calling.has(run.id),
          })),
        ),
        lastRunAt,
      };
    });
  });
}

export async function showAgentView(store: Store, workspaceSlug: string, name: string): Promise<AgentView> {
  const views = await listAgentViews(store, workspaceSlug);
  const view = views.find((v) => v.agent.name === name.toLowerCase());
  if (view === undefined) {
    const known = views.map((v) => v.agent.name).join(', ');
    throw new NotFoundError(`no agent "${name}" in workspace "${workspaceSlug}" (agents: ${known})`);
  }
  return view;
}
