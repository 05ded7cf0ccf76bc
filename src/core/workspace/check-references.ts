import type { Issue } from '../errors';
import type { StoreTx } from '../ports/store';
import { SEED_AGENTS } from './seed-agents';
import type { WorkspaceFile } from './workspace-file-schema';

/**
 * Checks every name the file refers to against the file itself and what the workspace
 * already holds, before anything is written: the whole file is refused if one is wrong.
 */
export async function checkReferences(
  tx: StoreTx,
  workspaceId: string | null,
  file: WorkspaceFile,
): Promise<Issue[]> {
  const stored = workspaceId === null ? null : await loadStored(tx, workspaceId);
  const agents = new Set([
    ...SEED_AGENTS.map((a) => a.name),
    ...(stored?.agents ?? []).map((a) => a.name),
    ...(file.agents ?? []).map((a) => a.name),
  ]);
  const members = new Set([...(stored?.members ?? []), ...(file.members ?? []).map((m) => m.nickname)]);
  const skills = new Set([...(stored?.skills ?? []), ...(file.skills ?? []).map((s) => s.name)]);
  const spaces = new Set([...(stored?.spaces ?? []), ...(file.spaces ?? []).map((s) => s.name)]);

  const issues: Issue[] = [];
  (file.agents ?? []).forEach((agent, i) => {
    if (agent.reportsTo !== undefined && !agents.has(agent.reportsTo)) {
      issues.push({ path: `agents[${i}].reportsTo`, message: `no agent named "${agent.reportsTo}"` });
    }
    (agent.skills ?? []).forEach((skill, j) => {
      if (!skills.has(skill))
        issues.push({ path: `agents[${i}].skills[${j}]`, message: `no skill named "${skill}"` });
    });
  });
  (file.spaces ?? []).forEach((space, i) => {
    (space.participants ?? []).forEach((name, j) => {
      if (!agents.has(name) && !members.has(name)) {
        issues.push({
          path: `spaces[${i}].participants[${j}]`,
          message: `no agent or member named "${name}"`,
        });
      }
    });
  });
  (file.guardrails ?? []).forEach((rule, i) => {
    const [kind, name] = rule.scope.split(':');
    if (kind === 'agent' && name !== undefined && !agents.has(name)) {
      issues.push({ path: `guardrails[${i}].scope`, message: `no agent named "${name}"` });
    }
    if (kind === 'space' && name !== undefined && !spaces.has(name)) {
      issues.push({ path: `guardrails[${i}].scope`, message: `no space named "${name}"` });
    }
  });
  // O3: a budget names an agent or space of the workspace.
  (file.budgets ?? []).forEach((budget, i) => {
    const [kind, name] = budget.scope.split(':');
    if (kind === 'agent' && name !== undefined && !agents.has(name)) {
      issues.push({ path: `budgets[${i}].scope`, message: `no agent named "${name}"` });
    }
    if (kind === 'space' && name !== undefined && !spaces.has(name)) {
      issues.push({ path: `budgets[${i}].scope`, message: `no space named "${name}"` });
    }
  });
  issues.push(...sharedChannelIssues(file), ...reportingCycleIssues(file, stored?.agents ?? []));
  issues.push(...mcpServerIssues(file, stored?.mcpServers ?? []));
  return issues;
}

/** A channel is bound to at most one space (P1). */
function sharedChannelIssues(file: WorkspaceFile): Issue[] {
  const owner = new Map<string, string>();
  const issues: Issue[] = [];
  (file.spaces ?? []).forEach((space, i) => {
    (space.channels ?? []).forEach((channel, j) => {
      const key = JSON.stringify(channel);
      const first = owner.get(key);
      if (first !== undefined && first !== space.name) {
        issues.push({
          path: `spaces[${i}].channels[${j}]`,
          message: `already bound to space "${first}" in this file`,
        });
      }
      owner.set(key, space.name);
    });
  });
  return issues;
}

/**
 * E1: a space or agent is given only declared servers: the file's `mcpServers` when it has
 * that list (it replaces the stored one), else the servers already declared.
 */
function mcpServerIssues(file: WorkspaceFile, stored: readonly string[]): Issue[] {
  const declared = new Set(file.mcpServers === undefined ? stored : file.mcpServers.map((s) => s.name));
  const check = (list: string, names: readonly string[] | undefined): Issue[] =>
    (names ?? []).flatMap((name, j) =>
      declared.has(name)
        ? []
        : [{ path: `${list}[${j}]`, message: `no MCP server named "${name}"; declare it under mcpServers` }],
    );
  return [
    ...(file.spaces ?? []).flatMap((space, i) => check(`spaces[${i}].mcpServers`, space.mcpServers)),
    ...(file.agents ?? []).flatMap((agent, i) => check(`agents[${i}].mcpServers`, agent.mcpServers)),
  ];
}

async function loadStored(tx: StoreTx, workspaceId: string) {
  const agents = await tx.agents.list(workspaceId);
  const nameOf = new Map(agents.map((a) => [a.id, a.name]));
  return {
    agents: agents.map((a) => ({
      name: a.name,
      reportsTo: a.reportsToId === null ? null : (nameOf.get(a.reportsToId) ?? null),
    })),
    members: (await tx.members.list(workspaceId)).map((m) => m.nickname),
    skills: (await tx.skills.list(workspaceId)).map((s) => s.name),
    spaces: (await tx.spaces.list(workspaceId)).map((s) => s.name),
    mcpServers: (await tx.mcpServers.listForWorkspace(workspaceId)).map((s) => s.spec.name),
  };
}

/** The org chart is a tree: following `reportsTo` from any agent must end at a top-level agent. */
function reportingCycleIssues(
  file: WorkspaceFile,
  stored: { name: string; reportsTo: string | null }[],
): Issue[] {
  const superior = new Map<string, string | null>(SEED_AGENTS.map((a) => [a.name, a.reportsTo]));
  for (const agent of stored) superior.set(agent.name, agent.reportsTo);
  for (const agent of file.agents ?? [])
    if (agent.reportsTo !== undefined) superior.set(agent.name, agent.reportsTo);

  const issues: Issue[] = [];
  (file.agents ?? []).forEach((agent, i) => {
    const seen = new Set([agent.name]);
    for (let next = superior.get(agent.name); next != null; next = superior.get(next)) {
      if (seen.has(next)) {
        issues.push({ path: `agents[${i}].reportsTo`, message: `makes a reporting cycle through "${next}"` });
        break;
      }
      seen.add(next);
    }
  });
  return issues;
}
