import { randomUUID } from 'node:crypto';
import { McpHttpEndpoint } from '../adapters/mcp-server/mcp-http-endpoint';
import type { McpChat } from '../core/mcp-service/member-tools-deps';
import { MemberToolsService } from '../core/mcp-service/member-tools-service';
import { systemClock } from '../core/ports/clock';
import type { Runtime } from './runtime';

/** The version Summon's MCP server gives in its handshake. */
const MCP_SERVER_VERSION = '1';

/**
 * E6: the chat `/mcp` asks and decides through: the chat front ends' engine from the start, or
 * the terminal chat's while it is open (`summon start` in a terminal starts its engine later).
 */
export class McpChatSlot {
  private current: McpChat | null = null;

  get(): McpChat | null {
    return this.current;
  }

  /** Sets the chat; the returned function takes it away again (only if it is still this one). */
  attach(chat: McpChat): () => void {
    this.current = chat;
    return () => {
      if (this.current === chat) this.current = null;
    };
  }
}

/**
 * E6: `/mcp` on Summon's HTTP server, for members with a personal token. It asks and decides
 * through the slot's chat (a turn like a mention, a decision like a click); with no chat the
 * reading tools still answer and the acting ones say why they cannot.
 */
export function createMcpEndpoint(runtime: Runtime, slot: McpChatSlot): McpHttpEndpoint {
  const tools = new MemberToolsService({
    store: runtime.store,
    chat: () => slot.get(),
    clock: systemClock,
    logger: runtime.logger.child({ component: 'mcp-server' }),
    newId: randomUUID,
  });
  return new McpHttpEndpoint({ tools, logger: runtime.logger, version: MCP_SERVER_VERSION });
}
