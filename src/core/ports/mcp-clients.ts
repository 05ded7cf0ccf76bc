import type { McpServerSpec } from '../model/mcp/mcp-server';
import type { ToolOutcome } from './turn-tools';

/** E1: one tool of a declared server, as the model is offered it. */
export interface McpToolInfo {
  server: string;
  /** The server's own name for the tool. */
  tool: string;
  /** `<server>__<tool>`, within `^[a-zA-Z0-9_-]{1,64}$`. */
  qualifiedName: string;
  description: string;
  /** The server's JSON Schema for the tool's input. */
  inputSchema: Record<string, unknown>;
  /** E4: annotated `readOnlyHint: true`. */
  readOnly: boolean;
}

/** E1, E3: a server whose tools could not be listed, and the sentence why. */
export interface McpUnavailable {
  server: string;
  reason: string;
}

/** Who a call is made for (E5: a member's own OAuth token). */
export interface McpCallContext {
  workspaceId: string;
  /**
   * E5: the member whose message started the turn. Required by servers with `tokens: member`
   * (a call without it cannot use them, and is told so); their pooled connections are per member.
   */
  memberId?: string | null;
}

/**
 * E2, E3: Summon as the only MCP client. Connections are pooled per server and closed when
 * idle; a server that exited is started again by the next call; every failure is a sentence.
 */
export interface McpClients {
  /** E1: the servers' tools (listed once per turn, cached per server). Never throws. */
  tools(
    context: McpCallContext,
    servers: readonly McpServerSpec[],
    signal: AbortSignal,
  ): Promise<{ tools: McpToolInfo[]; unavailable: McpUnavailable[] }>;
  /** E3: one call; a failure, timeout, malformed or oversized answer is a sentence (`ok: false`). */
  call(
    context: McpCallContext,
    server: McpServerSpec,
    tool: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ): Promise<ToolOutcome>;
  close(): Promise<void>;
}
