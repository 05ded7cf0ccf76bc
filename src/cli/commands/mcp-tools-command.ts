import type { Command } from 'commander';
import { AUTHORIZE_TOOL } from '../../adapters/mcp/client-oauth';
import { createMcpClients } from '../../app/mcp-clients-runtime';
import type { Runtime } from '../../app/runtime';
import { NotFoundError } from '../../core/errors';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import { type CliContext, withRuntime } from '../cli-context';
import { formatTable } from '../format-table';

/** E1: one server's tools as `summon mcp tools` shows them, or why it is unavailable. */
interface ServerTools {
  name: string;
  available: boolean;
  tools: { name: string; readOnly: boolean; description: string }[];
  reason?: string;
}

interface ToolsOptions {
  workspace: string;
  server?: string;
  member?: string;
  json?: boolean;
}

/**
 * E1, E2: `summon mcp tools`: connects to each declared server through Summon's own client
 * (the pool the turns use: the sandbox for stdio servers, `${env:…}` expanded from this
 * environment, stored OAuth tokens) and lists its tools, or says why it cannot.
 */
export function addMcpToolsCommand(mcp: Command, context: CliContext): void {
  mcp
    .command('tools')
    .description(
      "connect to each declared MCP server as Summon does and list its tools (qualified name, read-only or not, description's first line), or why a server is unavailable",
    )
    .option('-w, --workspace <slug>', 'workspace', 'default')
    .option('-s, --server <name>', 'only this server')
    .option('-m, --member <nickname>', "connect as this member (servers with each member's own OAuth tokens)")
    .option('--json', 'print JSON')
    .action((options: ToolsOptions) =>
      withRuntime(context, async (runtime) => {
        const servers = await listTools(runtime, context.env, options);
        if (options.json) {
          context.output.out(JSON.stringify({ workspace: options.workspace, servers }, null, 2));
          return;
        }
        context.output.out(render(options.workspace, servers));
      }),
    );
}

async function listTools(
  runtime: Runtime,
  env: NodeJS.ProcessEnv,
  options: ToolsOptions,
): Promise<ServerTools[]> {
  const { workspaceId, servers, memberId } = await declared(runtime, options);
  if (servers.length === 0) return [];
  const pool = createMcpClients(runtime.config, runtime.logger, env, runtime.store);
  try {
    // E5: listed for no member unless one is named: a server with members' own tokens says so.
    const listed = await pool.tools({ workspaceId, memberId }, servers, AbortSignal.timeout(120_000));
    return servers.map((server) => {
      const unavailable = listed.unavailable.filter((u) => u.server === server.name);
      const tools = listed.tools.filter((t) => t.server === server.name);
      if (needsOAuth(server) && tools.length === 1 && tools[0]?.tool === AUTHORIZE_TOOL) {
        const who = options.member ?? '<nickname>';
        const login = `summon mcp login ${server.name}${server.auth.tokens === 'member' ? ` --member ${who}` : ''}`;
        return unavailableLine(server.name, `it needs authorization: run \`${login}\``);
      }
      if (tools.length === 0 && unavailable.length > 0)
        return unavailableLine(server.name, unavailable.map((u) => u.reason).join(' '));
      return {
        name: server.name,
        available: true,
        tools: tools.map((t) => ({
          name: t.qualifiedName,
          readOnly: t.readOnly,
          description: t.description.split('\n')[0]?.trim() ?? '',
        })),
        ...(unavailable.length === 0 ? {} : { reason: unavailable.map((u) => u.reason).join(' ') }),
      };
    });
  } finally {
    await pool.close();
  }
}

const unavailableLine = (name: string, reason: string): ServerTools => ({
  name,
  available: false,
  tools: [],
  reason,
});

async function declared(
  runtime: Runtime,
  options: ToolsOptions,
): Promise<{ workspaceId: string; servers: McpServerSpec[]; memberId: string | null }> {
  return runtime.store.transaction(async (tx) => {
    const workspace = await tx.workspaces.findBySlug(options.workspace);
    if (workspace === null)
      throw new NotFoundError(
        `no workspace "${options.workspace}"; create it with \`summon workspace create ${options.workspace}\``,
      );
    let memberId: string | null = null;
    if (options.member !== undefined) {
      const nickname = options.member.replace(/^@/, '');
      const member = await tx.members.findByNickname(workspace.id, nickname);
      if (member === null) throw new NotFoundError(`Workspace ${workspace.slug} has no member @${nickname}.`);
      memberId = member.id;
    }
    const all = (await tx.mcpServers.listForWorkspace(workspace.id)).map((r) => r.spec);
    if (options.server === undefined) return { workspaceId: workspace.id, servers: all, memberId };
    const one = all.filter((s) => s.name === options.server);
    if (one.length === 0) {
      const names = all.map((s) => s.name).join(', ') || 'none';
      throw new NotFoundError(
        `Workspace ${workspace.slug} declares no MCP server "${options.server}" (it declares: ${names}).`,
      );
    }
    return { workspaceId: workspace.id, servers: one, memberId };
  });
}

function render(slug: string, servers: readonly ServerTools[]): string {
  if (servers.length === 0) return `workspace ${slug} declares no MCP servers`;
  const blocks = servers.map((s) => {
    if (!s.available) return `${s.name}: unavailable: ${s.reason}`;
    const head = `${s.name}: ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
    const table = formatTable(
      ['TOOL', 'READ-ONLY', 'DESCRIPTION'],
      s.tools.map((t) => [t.name, t.readOnly ? 'yes' : 'no', t.description || '-']),
      120,
    );
    return [head, table, ...(s.reason === undefined ? [] : [`note: ${s.reason}`])].join('\n');
  });
  return blocks.join('\n\n');
}
