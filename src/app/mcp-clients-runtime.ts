import { expandFromEnv } from '../adapters/mcp/env-expansion';
import { McpClientPool } from '../adapters/mcp/mcp-client-pool';
import { askForAuthorization } from '../adapters/mcp-oauth/ask-for-authorization';
import { McpOAuth } from '../adapters/mcp-oauth/mcp-oauth';
import { createProcessLauncher } from '../adapters/sandbox/create-process-launcher';
import type { Config } from '../config/config';
import { systemClock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import type { Store } from '../core/ports/store';
import { summonPorts } from './egress-runtime';

/**
 * E3, T3: stdio servers running at once in this process. A server lives across turns, so its
 * process has a bound of its own and takes none of the runs' process slots.
 */
const MCP_SERVER_PROCESSES = 256;

/**
 * E2, E3: Summon's MCP client for built-in turns: stdio servers under the sandbox (fail closed
 * like `bash`, X4), their allowed domains through a proxy of their own that never reaches
 * Summon's ports (X2), `${env:…}` references expanded from Summon's environment. E5: with the
 * store, `auth: oauth` servers use their owner's stored tokens, and a missing one sends the
 * right person a link privately (`sendPrivately` of the call).
 */
export function createMcpClients(
  config: Config,
  logger: Logger,
  env: NodeJS.ProcessEnv = process.env,
  store?: Store,
) {
  const mcpLogger = logger.child({ component: 'mcp' });
  return new McpClientPool({
    expand: expandFromEnv(env),
    launcher: createProcessLauncher({ mode: config.sandbox.mode, processConcurrency: MCP_SERVER_PROCESSES }),
    logger: mcpLogger,
    forbiddenPorts: summonPorts(config),
    idleMs: config.mcp.idleMs,
    callTimeoutMs: config.mcp.callTimeoutMs,
    ...(store === undefined ? {} : { oauth: clientOAuth(config, store, mcpLogger) }),
  });
}

function clientOAuth(config: Config, store: Store, logger: Logger) {
  const oauth = new McpOAuth({
    store,
    clock: systemClock,
    logger,
    settings: { secretKey: config.secretKey, publicUrl: config.publicUrl },
  });
  return {
    provider: oauth.provider.bind(oauth),
    ask: (context: Parameters<McpOAuth['provider']>[0], spec: Parameters<McpOAuth['provider']>[1]) =>
      askForAuthorization(
        {
          oauth,
          store,
          clock: systemClock,
          logger,
          sendPrivately: async (member, text) => {
            // E5: nobody can be reached from here (no conversation): the sentence says so.
            if (context.sendPrivately === undefined) throw new Error('no conversation to reach them in');
            await context.sendPrivately(member, text);
          },
        },
        context,
        spec,
      ),
  };
}
