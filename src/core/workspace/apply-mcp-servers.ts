import { specOfEntry } from '../mcp/mcp-server-entry';
import type { McpServerSpec } from '../model/mcp/mcp-server';
import type { McpServerTarget } from '../ports/mcp-server-store';
import type { StoreTx } from '../ports/store';
import type { ChangeReport } from './change-report';
import type { WorkspaceFile } from './workspace-file-schema';

/**
 * E1: `mcpServers`, when given, is the whole list: servers are created or their spec replaced
 * by name, and a server left out is removed with its assignments. A space's or agent's
 * `mcpServers`, when given, replaces what it is given (in the file's order); left out, it is
 * kept. E2: the specs are stored with their `${env:…}` references as written. Runs after the
 * agents and spaces exist; `checkReferences` has refused undeclared names.
 */
export async function applyMcpServers(
  tx: StoreTx,
  workspaceId: string,
  file: WorkspaceFile,
  report: ChangeReport,
): Promise<void> {
  if (file.mcpServers !== undefined) await applyDeclarations(tx, workspaceId, file.mcpServers, report);
  const assigned = await tx.mcpServers.assignments(workspaceId);
  const current = (target: McpServerTarget) =>
    assigned
      .filter((a) => ('spaceId' in target ? a.spaceId === target.spaceId : a.agentId === target.agentId))
      .map((a) => a.server);
  const targets = [
    ...(file.spaces ?? []).map((entry) => ({ kind: 'space' as const, entry })),
    ...(file.agents ?? []).map((entry) => ({ kind: 'agent' as const, entry })),
  ];
  for (const { kind, entry } of targets) {
    if (entry.mcpServers === undefined) continue;
    const found =
      kind === 'space'
        ? await tx.spaces.findByName(workspaceId, entry.name)
        : await tx.agents.findByName(workspaceId, entry.name);
    if (found === null) continue;
    const target: McpServerTarget = kind === 'space' ? { spaceId: found.id } : { agentId: found.id };
    const wanted = [...new Set(entry.mcpServers)];
    const before = current(target);
    if (before.length === wanted.length && before.every((name, i) => name === wanted[i])) continue;
    await tx.mcpServers.assign(workspaceId, target, wanted);
    const label = `${kind} ${entry.name}`;
    if (!report.created.includes(label) && !report.updated.includes(label)) report.updated.push(label);
  }
}

async function applyDeclarations(
  tx: StoreTx,
  workspaceId: string,
  entries: NonNullable<WorkspaceFile['mcpServers']>,
  report: ChangeReport,
): Promise<void> {
  const stored = new Map(
    (await tx.mcpServers.listForWorkspace(workspaceId)).map((record) => [record.spec.name, record.spec]),
  );
  for (const entry of entries) {
    const spec = specOfEntry(entry);
    const existing = stored.get(spec.name);
    stored.delete(spec.name);
    if (existing !== undefined && sameSpec(existing, spec)) continue;
    await tx.mcpServers.save(workspaceId, spec);
    (existing === undefined ? report.created : report.updated).push(`mcp server ${spec.name}`);
  }
  for (const name of stored.keys()) {
    await tx.mcpServers.remove(workspaceId, name);
    report.updated.push(`mcp server ${name} (removed)`);
  }
}

/** The database may give back an object's keys in another order; the values are what count. */
const sameSpec = (a: McpServerSpec, b: McpServerSpec): boolean => canonical(a) === canonical(b);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
