import type { WorkspaceRecord } from '../model/records';
import type { StoreTx } from '../ports/store';
import { SEED_AGENTS } from './seed-agents';
import { assertSlug } from './slug';

/**
 * Finds or creates a workspace and makes sure the five seeded agents exist (A11). Idempotent:
 * an agent that already exists is left as it is (people may have changed its persona), and
 * creating the workspace twice never duplicates anything.
 */
export async function ensureWorkspace(
  tx: StoreTx,
  slug: string,
  name?: string,
): Promise<{ workspace: WorkspaceRecord; created: boolean; seededAgents: string[] }> {
  assertSlug(slug, 'workspace');
  const existing = await tx.workspaces.findBySlug(slug);
  const workspace = existing ?? (await tx.workspaces.insert({ slug, name: name ?? slug }));
  const seededAgents = await seedAgents(tx, workspace.id);
  return { workspace, created: existing === null, seededAgents };
}

/** Inserts the seeded agents that are missing; returns their names. */
export async function seedAgents(tx: StoreTx, workspaceId: string): Promise<string[]> {
  const inserted: string[] = [];
  for (const { reportsTo, ...fields } of SEED_AGENTS) {
    if (await tx.agents.findByName(workspaceId, fields.name)) continue;
    const superior = reportsTo === null ? null : await tx.agents.findByName(workspaceId, reportsTo);
    await tx.agents.insert(workspaceId, { ...fields, reportsToId: superior?.id ?? null });
    inserted.push(fields.name);
  }
  return inserted;
}
