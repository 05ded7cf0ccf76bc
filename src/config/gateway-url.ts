import { isIP } from 'node:net';

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/** The lowest port a listener inside the sandbox may bind (it has no capability for a lower one). */
export const LOWEST_FORWARD_PORT = 1024;

/** Where the gateway listens, as a sandboxed run reaches it; `byName`: a host name, resolved inside to 127.0.0.1. */
export interface GatewayEndpoint {
  host: string;
  port: number;
  byName: boolean;
}

/**
 * X2, G3: the gateway at `raw` as a sandbox can carry it in, or why it cannot (a sentence that
 * says what to do). On loopback (`127.0.0.1`, `localhost`): its port on the sandbox's own
 * loopback. A host name (the web process on another machine, docs/deploying.md): the same port,
 * with the name resolving to the sandbox's 127.0.0.1 inside. An IP address that is not
 * loopback, or a port below 1024, cannot be listened on inside. Here, not in the sandbox
 * adapter, because the configuration refuses such a URL at start and imports no adapter.
 */
export function gatewayEndpoint(raw: string): { endpoint: GatewayEndpoint } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `the gateway URL "${raw}" is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: `the gateway URL ${raw} is not http(s)` };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (host !== '127.0.0.1' && isIP(host) !== 0)
    return {
      problem: `the gateway URL ${raw} names the IP address ${host}, which a sandboxed run cannot reach: its only network is its own loopback, and an address other than 127.0.0.1 cannot be carried into it. Use 127.0.0.1 (the default, when the gateway runs on this machine) or a host name for that address`,
    };
  if (port < LOWEST_FORWARD_PORT)
    return {
      problem: `the gateway URL ${raw} uses port ${port}, which a sandboxed run cannot listen on (ports below ${LOWEST_FORWARD_PORT} need a capability the sandbox does not have). Give the gateway a port of ${LOWEST_FORWARD_PORT} or higher`,
    };
  return { endpoint: { host, port, byName: !LOOPBACK.has(host) } };
}

/**
 * X4: the sentence that refuses the start when the configured gateway URL cannot be carried
 * into the sandbox (undefined when it can).
 */
export function gatewayUrlProblem(raw: string): string | undefined {
  const result = gatewayEndpoint(raw);
  if (!('problem' in result)) return undefined;
  return `SUMMON_GATEWAY_URL: ${result.problem}; or set SUMMON_SANDBOX=off to run agents’ commands unconfined (not recommended).`;
}
