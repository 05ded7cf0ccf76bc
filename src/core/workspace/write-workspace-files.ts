import type { StoreTx } from '../ports/store';
import type { WorkspaceDirectory } from '../ports/workspace-directory';

/**
 * A3: rewrites every skill and agent folder of a workspace from its rows. Called inside the
 * transaction that changed the rows, so a failed write rolls the rows back.
 */
export async function writeWorkspaceFiles(
  tx: StoreTx,
  directory: WorkspaceDirectory,
  workspace: { id: string; slug: string },
): Promise<void> {
  for (const skill of await tx.skills.list(workspace.id)) {
    await directory.writeSkill(workspace.slug, skill);
  }
  const agents = await tx.agents.list(workspace.id);
  const nameOf = new Map(agents.map((agent) => [agent.id, agent.name]));
  for (const agent of agents) {
    const reportsTo = agent.reportsToId === null ? null : (nameOf.get(agent.reportsToId) ?? null);
    await directory.writeAgent(workspace.slug, { agent, reportsTo });
  }
}
