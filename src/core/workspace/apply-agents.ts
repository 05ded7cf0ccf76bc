import type { AgentFields } from '../model/records';
import type { StoreTx } from '../ports/store';
import { newAgentDefaults } from './agent-defaults';
import { type ChangeReport, changedFields } from './change-report';
import type { AgentEntry } from './workspace-file-schema';

/**
 * Agents are merged over what exists (the five seeded ones included): a key present in the
 * file sets that attribute, a key left out keeps the stored value.
 */
export async function applyAgents(
  tx: StoreTx,
  workspaceId: string,
  entries: readonly AgentEntry[],
  report: ChangeReport,
): Promise<void> {
  // First every agent exists, then `reportsTo` is resolved, so an entry may name an agent
  // that comes later in the file.
  for (const entry of entries) {
    const existing = await tx.agents.findByName(workspaceId, entry.name);
    const patch = agentPatch(entry);
    if (existing === null) {
      await tx.agents.insert(workspaceId, { ...newAgentDefaults(entry.name), ...patch });
      report.created.push(`agent ${entry.name}`);
      continue;
    }
    const changed = changedFields(existing, patch);
    if (Object.keys(changed).length > 0) {
      await tx.agents.update(existing.id, changed);
      report.updated.push(`agent ${entry.name}`);
    }
  }
  for (const entry of entries) {
    if (entry.reportsTo === undefined) continue;
    const agent = await tx.agents.findByName(workspaceId, entry.name);
    const superior = await tx.agents.findByName(workspaceId, entry.reportsTo);
    if (agent === null || superior === null || agent.reportsToId === superior.id) continue;
    await tx.agents.update(agent.id, { reportsToId: superior.id });
    if (!report.created.includes(`agent ${entry.name}`) && !report.updated.includes(`agent ${entry.name}`)) {
      report.updated.push(`agent ${entry.name}`);
    }
  }
}

function agentPatch(entry: AgentEntry): Partial<AgentFields> {
  const patch: Partial<AgentFields> = {};
  if (entry.title !== undefined) patch.title = entry.title;
  if (entry.persona !== undefined) patch.persona = entry.persona;
  if (entry.systemPrompt !== undefined) patch.systemPrompt = entry.systemPrompt;
  // A4: skills are a case-insensitive set.
  if (entry.skills !== undefined) patch.skills = [...new Set(entry.skills.map((s) => s.toLowerCase()))];
  if (entry.adapter !== undefined) {
    patch.adapterId = entry.adapter === 'builtin' ? null : entry.adapter; // A10: null is the built-in loop
    if (entry.adapter !== 'command') patch.command = null;
  }
  if (entry.command !== undefined) patch.command = entry.command;
  if (entry.model !== undefined) patch.modelId = entry.model;
  if (entry.effort !== undefined) patch.effort = entry.effort;
  if (entry.contextSize !== undefined) patch.contextSize = entry.contextSize;
  if (entry.silenceTimeoutMinutes !== undefined) patch.silenceTimeoutMinutes = entry.silenceTimeoutMinutes;
  if (entry.avatarUrl !== undefined) patch.avatarUrl = entry.avatarUrl;
  return patch;
}
