import { expandFromEnv } from '../adapters/mcp/env-expansion';
import { McpClientPool } from '../adapters/mcp/mcp-client-pool';
import { createProcessLauncher } from '../adapters/sandbox/create-process-launcher';
import type { Config } from '../config/config';
import type { Logger } from '../core/ports/logger';
import { summonPorts } from './egress-runtime';

/**
 * E3, T3: stdio servers running at once in this process. A server lives across turns, so its
 * process has a bound of its own and takes none of the runs' process slots.
 */
const MCP_SERVER_PROCESSES = 256;

/**
 * E2, E3: Summon's MCP client for built-in turns: stdio servers under the sandbox (fail closed
 * like `bash`, X4), their allowed domains through a proxy of their own that never reaches
 * Summon's ports (X2), `${env:…}` references expanded from Summon's environment.
 */
export function createMcpClients(config: Config, logger: Logger, env: NodeJS.ProcessEnv = process.env) {
  return new McpClientPool({
    expand: expandFromEnv(env),
    launcher: createProcessLauncher({ mode: config.sandbox.mode, processConcurrency: MCP_SERVER_PROCESSES }),
    logger: logger.child({ component: 'mcp' }),
    forbiddenPorts: summonPorts(config),
    idleMs: config.mcp.idleMs,
    callTimeoutMs: config.mcp.callTimeoutMs,
  });
}
