import { NotFoundError } from '../errors';
import type { AgentRecord } from '../model/records';
import type { AgentLiveStatus } from '../model/run';
import type { Store } from '../ports/store';
import { deriveLiveStatus } from './live-status';

export interface AgentView {
  agent: AgentRecord;
  reportsTo: string | null;
  status: AgentLiveStatus;
  lastRunAt: Date | null;
}

/** Enough recent runs per agent to see every run in progress and the last one that ended. */
const RUNS_PER_AGENT = 20;

/**
 * The agents of a workspace with their live status (A12), read inside a workspace-scoped
 * transaction so row-level security applies (A2).
 */
export async function listAgentViews(store: Store, workspaceSlug: string): Promise<AgentView[]> {
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
