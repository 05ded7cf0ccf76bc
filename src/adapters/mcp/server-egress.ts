import { isAllowedDomain } from '../../core/network/allowed-domains';
import type { Logger } from '../../core/ports/logger';
import { startEgressProxy } from '../egress-proxy/egress-proxy';
import type { HostResolver } from '../egress-proxy/host-resolver';
import type { SandboxForward } from '../sandbox/sandbox-policy';

export interface ServerEgress {
  forwards: SandboxForward[];
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface ServerEgressOptions {
  resolve: HostResolver;
  /** X2: never reached (the git gateway's port, Summon's HTTP port). */
  forbiddenPorts: readonly number[];
  logger: Logger;
}

const NONE: ServerEgress = { forwards: [], env: {}, close: async () => undefined };

/**
 * X2, E3: a stdio server's own network: with no allowed domains none at all (no proxy, no
 * forward); otherwise a filtering proxy like a run's, which lets through only the hosts its
 * entry's `allowedDomains` name (no guardrail, no approval: the entry is the allow-list), and
 * reaches no loopback or private address that real DNS gives.
 */
export async function startServerEgress(
  server: string,
  allowedDomains: readonly string[],
  options: ServerEgressOptions,
): Promise<ServerEgress> {
  if (allowedDomains.length === 0) return NONE;
  const proxy = await startEgressProxy({
    authorizeHost: async (host) =>
      isAllowedDomain(host, allowedDomains)
        ? { allowed: true }
        : {
            allowed: false,
            reason: `Refused: ${host} is not among the allowed domains of the MCP server ${server}.`,
          },
    resolve: options.resolve,
    forbiddenPorts: options.forbiddenPorts,
    log: options.logger.child({ component: 'mcp-egress', server }),
  });
  const url = `http://127.0.0.1:${proxy.port}`;
  const direct = '127.0.0.1,localhost,::1';
  return {
    forwards: [{ port: proxy.port, target: { host: '127.0.0.1', port: proxy.port } }],
    env: {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      NO_PROXY: direct,
      no_proxy: direct,
    },
    close: () => proxy.close(),
  };
}
