import type { Command } from 'commander';
import { NotFoundError } from '../../core/errors';
import { variableStatus } from '../../core/mcp/expand-spec';
import type { Store } from '../../core/ports/store';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

/** E1, E2: one declared server as `summon mcp list` shows it: never a variable's value. */
interface ServerLine {
  name: string;
  transport: 'stdio' | 'http';
  /** The program or the URL, as written (references unexpanded). */
  target: string;
  spaces: string[];
  agents: string[];
  variables: { name: string; set: boolean }[];
}

/** E1, E2: `summon mcp`: the MCP servers a workspace declares. */
export function registerMcpCommand(program: Command, context: CliContext): void {
  const mcp = program.command('mcp').description('MCP servers the workspace declares (E1)');
  mcp
    .command('list')
    .description(
      'each declared MCP server, its transport, the spaces and agents given it, and whether the variables it references are set here (never their values)',
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('--json', 'print JSON')
    .action((options: { workspace: string; json?: boolean }) =>
      withRuntime(context, async ({ store }) => {
        const servers = await serverLines(store, options.workspace, context.env);
        if (options.json) {
          context.output.out(JSON.stringify({ workspace: options.workspace, servers }, null, 2));
          return;
        }
        context.output.out(render(options.workspace, servers));
      }),
    );
}

async function serverLines(store: Store, slug: string, env: NodeJS.ProcessEnv): Promise<ServerLine[]> {
  return store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug(slug);
    if (workspace === null)
      throw new NotFoundError(`no workspace "${slug}"; create it with \`summon workspace create ${slug}\``);
    const servers = await tx.mcpServers.listForWorkspace(workspace.id);
    if (servers.length === 0) return [];
    const assigned = await tx.mcpServers.assignments(workspace.id);
    const spaceName = new Map((await tx.spaces.list(workspace.id)).map((s) => [s.id, s.name]));
    const agentName = new Map((await tx.agents.list(workspace.id)).map((a) => [a.id, a.name]));
    return servers.map(({ spec }) => {
      const mine = assigned.filter((a) => a.server === spec.name);
      return {
        name: spec.name,
        transport: spec.transport,
        target: spec.transport === 'http' ? spec.url : spec.command,
        spaces: mine.flatMap((a) => (a.spaceId === null ? [] : [spaceName.get(a.spaceId) ?? a.spaceId])),
        agents: mine.flatMap((a) => (a.agentId === null ? [] : [agentName.get(a.agentId) ?? a.agentId])),
        // E2: whether each is set in this environment; the values are never read out.
        variables: variableStatus(spec, env),
      };
    });
  });
}

function render(slug: string, servers: readonly ServerLine[]): string {
  if (servers.length === 0) return `workspace ${slug} declares no MCP servers`;
  const given = (s: ServerLine) =>
    [...s.spaces.map((n) => `space ${n}`), ...s.agents.map((n) => `agent ${n}`)].join(', ') || '-';
  const variables = (s: ServerLine) =>
    s.variables.map((v) => `${v.name} (${v.set ? 'set' : 'missing'})`).join(', ') || '-';
  const lines = [
    `MCP servers of workspace ${slug}`,
    formatTable(
      ['NAME', 'TRANSPORT', 'GIVEN TO', 'VARIABLES'],
      servers.map((s) => [s.name, s.transport, given(s), variables(s)]),
      120,
    ),
  ];
  if (servers.some((s) => s.variables.some((v) => !v.set)))
    lines.push(
      'missing: unset or empty where this command runs; set it where Summon runs, or the server is not started',
    );
  return lines.join('\n');
}
