import type { TurnToolsScope } from '../../ports/turn-tools-factory';
import { mcpToolDefinition } from '../../tools/mcp-tool';
import type { AnyToolDefinition } from '../../tools/tool-definition';
import { privateSender } from './private-sender';
import type { ToolKitDeps } from './tool-kit-deps';

/**
 * E1, A9: the MCP servers' tools of a built-in turn, listed once at its start (each server's
 * list is kept by the client between turns). A server that cannot be listed leaves its tools
 * out, and the turn's status card says which and why (one row each); the turn goes on.
 */
export async function mcpTurnTools(deps: ToolKitDeps, turn: TurnToolsScope): Promise<AnyToolDefinition[]> {
  const mcp = deps.mcp;
  if (mcp === undefined || turn.modelTools !== true) return [];
  // E1: the union of the space's and the agent's servers, as the workspace declares them;
  // T3: a claimed turn read them with its claim, and only a scope without them reads here.
  const servers =
    turn.mcpServers ??
    (await deps.store.inWorkspace(turn.agent.workspaceId, (tx) =>
      tx.mcpServers.forTurn(turn.agent.id, turn.space.id),
    ));
  if (servers.length === 0) return [];
  // E5: calls are made for the member whose message started the turn (their own tokens).
  // E5: and a link that authorizes a server reaches a person privately, where the turn is.
  const sendPrivately = privateSender(deps.platforms, turn.conversation);
  const context = {
    workspaceId: turn.agent.workspaceId,
    memberId: turn.memberId ?? null,
    ...(sendPrivately === null ? {} : { sendPrivately }),
  };
  const signal = turn.signal ?? new AbortController().signal;
  const { tools, unavailable } = await mcp.clients.tools(context, servers, signal);
  for (const missing of unavailable) {
    deps.logger.warn({ runId: turn.runId, server: missing.server }, 'mcp server left out of the turn');
    turn.cardRow?.(`✗ ${missing.reason}`);
  }
  const byName = new Map(servers.map((server) => [server.name, server]));
  return tools.flatMap((info) => {
    const server = byName.get(info.server);
    if (server === undefined) return [];
    return [
      mcpToolDefinition(info, (args, callSignal) =>
        mcp.clients.call(context, server, info.tool, args, callSignal),
      ),
    ];
  });
}
