import type { EgressProxies } from '../../ports/egress';
import type { McpClients } from '../../ports/mcp-clients';
import type { Metrics } from '../../ports/metrics';
import type { TurnToolsFactory } from '../../ports/turn-tools-factory';
import type { AgentToolDeps } from '../agent-tools/agent-tool-deps';

/**
 * What a turn's tool kit uses of the engine (A9): what the agent-to-agent tools use (guarded
 * calls wait on approvals the same way, G4, T1) and each run's egress proxy (X2).
 */
export interface ToolKitDeps extends AgentToolDeps {
  /** X2: present when commands run in the sandbox; the proxy decides `network` per host. */
  egress?: EgressProxies;
  /** O4: MCP calls are counted (`recordMcpCall`); absent: nothing is counted. */
  metrics?: Metrics;
  /** E1, E2: the MCP servers' tools for built-in turns, called through Summon; absent: none. */
  mcp?: McpToolsDeps;
}

/** E1, E2: Summon's MCP client for the turns' declared servers (`mcpServers.forTurn`). */
export interface McpToolsDeps {
  clients: McpClients;
}

/**
 * A9: a tool kit, bound to an engine once that engine's deps exist (its slots and wait signals
 * are made by the engine): the tools of a turn wait, hand off and ask through the engine.
 */
export type TurnToolKit = (engine: ToolKitDeps) => TurnToolsFactory;
