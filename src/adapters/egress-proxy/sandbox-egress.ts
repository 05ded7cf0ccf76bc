import type { RunEgress } from '../../core/ports/egress';
import type { SandboxForward } from '../sandbox/sandbox-policy';

/** What a sandboxed process needs to use its run's egress proxy. */
export interface SandboxEgress {
  forwards: SandboxForward[];
  env: Record<string, string>;
  /**
   * X2: set when the run reaches no host at all (no proxy, no forward): the refusal sentence,
   * for a command whose output shows it tried (`networkFailureNote`).
   */
  unreachable?: string;
}

const NONE: SandboxEgress = { forwards: [], env: {} };

/**
 * X2: the sandbox has no network but its forwards. When the run can reach some host, the run's
 * proxy (started here, on the first call that needs it) appears on the same port of the
 * sandbox's loopback, and the usual proxy variables point at it; loopback itself (the git
 * gateway, other forwards) stays direct. When the run can reach none (`network` denied, or no
 * allowed domains), the call gets no proxy and no forward: a forward is the larger part of a
 * call's start-up cost (docs/sandbox-network.md).
 */
export async function sandboxEgress(egress: RunEgress | undefined): Promise<SandboxEgress> {
  if (egress === undefined) return NONE;
  const reach = await egress.reach();
  if (!reach.reachable) return { forwards: [], env: {}, unreachable: reach.reason };
  const port = await egress.proxyPort();
  const proxy = `http://127.0.0.1:${port}`;
  const direct = '127.0.0.1,localhost,::1';
  return {
    forwards: [{ port, target: { host: '127.0.0.1', port } }],
    env: {
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      NO_PROXY: direct,
      no_proxy: direct,
    },
  };
}

/**
 * What common clients print when a name cannot be resolved or a connection cannot be made
 * (curl, wget, git, Node, Python, pip, npm): inside a sandbox without a proxy, that is a
 * command that tried to reach a host.
 */
const NETWORK_FAILURE =
  /Could not resolve (?:host|proxy)|Couldn't connect to server|Failed to connect to|unable to resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|Network is unreachable|Failed to establish a new connection/;

/**
 * X2: the line a sandboxed command's result ends with when its run reaches no host and its
 * output shows it tried, so the agent reads why (as it does from the proxy's refusals).
 */
export function networkFailureNote(egress: SandboxEgress, output: string): string {
  if (egress.unreachable === undefined || !NETWORK_FAILURE.test(output)) return '';
  return `\n[network] ${egress.unreachable}`;
}
