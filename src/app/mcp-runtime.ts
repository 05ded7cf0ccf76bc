import { randomUUID } from 'node:crypto';
import { McpHttpEndpoint } from '../adapters/mcp-server/mcp-http-endpoint';
import { MemberToolsService } from '../core/mcp-service/member-tools-service';
import { systemClock } from '../core/ports/clock';
import type { ChatFrontEnds } from './chat-front-ends';
import type { Runtime } from './runtime';

/** The version Summon's MCP server gives in its handshake. */
const MCP_SERVER_VERSION = '1';

/**
 * E6: `/mcp` on Summon's HTTP server, for members with a personal token. It asks and decides
 * through the chat front ends' engine (a turn like a mention, a decision like a click); with no
 * chat platform the reading tools still answer and the acting ones say why they cannot.
 */
export function createMcpEndpoint(runtime: Runtime, chat: ChatFrontEnds | null): McpHttpEndpoint {
  const tools = new MemberToolsService({
    store: runtime.store,
    engine: chat?.engine ?? null,
    platforms: chat?.platformPorts ?? new Map(),
    clock: systemClock,
    logger: runtime.logger.child({ component: 'mcp-server' }),
    newId: randomUUID,
  });
  return new McpHttpEndpoint({ tools, logger: runtime.logger, version: MCP_SERVER_VERSION });
}
