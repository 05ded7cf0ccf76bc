import { AUTHORIZE_TOOL } from '../../adapters/mcp/client-oauth';
import { mcpOAuthCheck } from '../../adapters/mcp-oauth/oauth-settings';
import type { Config } from '../../config/config';
import { expandSpec } from '../../core/mcp/expand-spec';
import { needsOAuth } from '../../core/mcp/token-owner';
import type { McpServerSpec } from '../../core/model/mcp/mcp-server';
import { type CheckResult, fail, ok, warn } from '../../core/ports/doctor-check';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import { createMcpClients } from '../mcp-clients-runtime';

/** O1, E1: the longest doctor waits for one server to connect and list its tools. */
const SERVER_BOUND_MS = 10_000;

interface Declared {
  workspace: string;
  workspaceId: string;
  spec: McpServerSpec;
}

/**
 * O1, E1, E2, E5: each workspace's declared MCP servers, connected through Summon's own client
 * (sandboxed stdio servers, `${env:…}` from this environment): reachable or not, how many
 * tools, how long it took, each bounded so that a server that hangs cannot hang doctor. A
 * missing variable is named, never its value; OAuth's key and public URL are checked.
 */
export async function mcpDoctorChecks(
  config: Config,
  env: NodeJS.ProcessEnv,
  store: Store,
  logger: Logger,
): Promise<CheckResult[]> {
  const declared = await store.transaction(async (tx) => {
    const all: Declared[] = [];
    for (const workspace of await tx.workspaces.list())
      for (const { spec } of await tx.mcpServers.listForWorkspace(workspace.id))
        all.push({ workspace: workspace.slug, workspaceId: workspace.id, spec });
    return all;
  });
  if (declared.length === 0) return [ok('mcp', 'no workspace declares an MCP server')];
  const bound = Math.min(SERVER_BOUND_MS, config.mcp.callTimeoutMs);
  const pool = createMcpClients(config, logger, env, store);
  try {
    const lines = await Promise.all(declared.map((server) => checkServer(pool, server, env, bound)));
    const settings = { secretKey: config.secretKey, publicUrl: config.publicUrl };
    return [
      ...lines,
      ...mcpOAuthCheck(
        settings,
        declared.map((d) => d.spec),
      ).filter((r) => r.status !== 'ok'),
    ];
  } finally {
    await pool.close();
  }
}

async function checkServer(
  pool: ReturnType<typeof createMcpClients>,
  { workspace, workspaceId, spec }: Declared,
  env: NodeJS.ProcessEnv,
  boundMs: number,
): Promise<CheckResult> {
  const name = `mcp ${workspace}/${spec.name}`;
  const expanded = expandSpec(spec, env);
  if (!expanded.ok) {
    const names = expanded.missing.join(', ');
    return fail(name, `needs ${names}, not set here`, `set ${names} where Summon runs`);
  }
  if (needsOAuth(spec) && spec.auth.tokens === 'member')
    return ok(name, "each member's own OAuth tokens: connected per member, not checked here");
  const started = performance.now();
  const listed = await pool.tools({ workspaceId, memberId: null }, [spec], AbortSignal.timeout(boundMs));
  const ms = Math.round(performance.now() - started);
  if (listed.tools.length === 1 && listed.tools[0]?.tool === AUTHORIZE_TOOL && needsOAuth(spec))
    return warn(name, 'needs authorization', `run \`summon mcp login ${spec.name} -w ${workspace}\``);
  if (listed.tools.length === 0 && listed.unavailable.length > 0) {
    const reason = listed.unavailable.map((u) => u.reason).join(' ');
    return fail(name, `unreachable after ${ms} ms: ${reason}`, 'check the entry with `summon mcp tools`');
  }
  const count = listed.tools.length;
  return ok(name, `reachable, ${count} tool${count === 1 ? '' : 's'}, ${ms} ms`);
}
