import { listAgentViews, type RunActivityLookup } from '../agents/agent-roster';
import type { BindablePlatform } from '../model/platform';
import type { WorkspaceOverview } from '../model/workspace-overview';
import { type Clock, systemClock } from '../ports/clock';
import type { Store } from '../ports/store';
import { periodStart } from '../usage/budget';

const FAR_FUTURE = new Date(8.64e15);

/**
 * What a home screen shows a member (Slack's App Home; Discord can use the same): null when
 * the team is not linked or the person is not a member (P8).
 */
export async function workspaceOverview(
  store: Store,
  who: { platform: BindablePlatform; teamId: string; userId: string },
  /** A13: the activity of runs this process executes, for presence. */
  activityOf?: RunActivityLookup,
  clock: Clock = systemClock,
): Promise<WorkspaceOverview | null> {
  const scope = await store.transaction(async (tx) => {
    const binding = await tx.platformBindings.find(who.platform, who.teamId);
    if (binding === null) return null;
    const workspace = await tx.workspaces.findById(binding.workspaceId);
    if (workspace === null) return null;
    const member = await tx.members.findByPlatformUser(workspace.id, who.platform, who.userId);
    if (member === null) return null;
    const pendingApprovals = (await tx.approvals.listPendingDue(FAR_FUTURE)).filter(
      (a) => a.workspaceId === workspace.id,
    );
    const bindings = await tx.channelBindings.listForWorkspace(workspace.id);
    const spaces = (await tx.spaces.list(workspace.id)).map((space) => ({
      name: space.name,
      channels: bindings
        .filter((b) => b.spaceId === space.id && b.platform === who.platform)
        .map((b) => b.channelId),
    }));
    return { workspace, pendingApprovals, spaces };
  });
  if (scope === null) return null;
  const usageThisMonth = await store.inWorkspace(scope.workspace.id, (tx) =>
    tx.usage.report(scope.workspace.id, { by: 'agent', since: periodStart('month', clock.now()) }),
  );
  const agents = await listAgentViews(store, scope.workspace.slug, activityOf);
  return {
    workspaceName: scope.workspace.name,
    agents,
    pendingApprovals: scope.pendingApprovals,
    spaces: scope.spaces,
    usageThisMonth,
  };
}
