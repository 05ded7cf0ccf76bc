import { isIP } from 'node:net';
import type { SandboxForward } from './sandbox-policy';

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/** The lowest port a listener inside the sandbox may bind (it has no capability for a lower one). */
export const LOWEST_FORWARD_PORT = 1024;

/**
 * X2, G3: how the gateway at `raw` is carried into a sandbox, or why it cannot be (a sentence
 * that says what to do). On loopback (`127.0.0.1`, `localhost`): its port on the sandbox's own
 * loopback. A host name (the web process on another machine, docs/deploying.md): the same port,
 * with the name resolving to the sandbox's 127.0.0.1 inside, and the host's side of the forward
 * connecting to the name (TLS and the name stay as they are end to end). An IP address that is
 * not loopback, or a port below 1024, cannot be listened on inside.
 */
export function gatewayForward(raw: string): { forward: SandboxForward } | { problem: string } {
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
  if (LOOPBACK.has(host)) return { forward: { port, target: { host, port } } };
  return { forward: { port, target: { host, port }, names: [host.toLowerCase()] } };
}

/**
 * X4: the sentence that refuses the start when the configured gateway URL cannot be carried
 * into the sandbox (undefined when it can).
 */
export function gatewayUrlProblem(raw: string): string | undefined {
  const result = gatewayForward(raw);
  if (!('problem' in result)) return undefined;
  return `SUMMON_GATEWAY_URL: ${result.problem}; or set SUMMON_SANDBOX=off to run agents’ commands unconfined (not recommended).`;
}

/** G3: the gateways the run's git configuration sends credentials to (`http.<url>.extraHeader`), as forwards. */
export function gatewayForwards(env: Readonly<Record<string, string>>): SandboxForward[] {
  const forwards: SandboxForward[] = [];
  for (const [name, key] of Object.entries(env)) {
    if (!/^GIT_CONFIG_KEY_\d+$/.test(name)) continue;
    const match = /^http\.(https?:\/\/.+)\.extraheader$/i.exec(key);
    if (match?.[1] === undefined) continue;
    const result = gatewayForward(match[1]);
    // One that cannot be forwarded was refused at start (gatewayUrlProblem); git reports it otherwise.
    if ('forward' in result) forwards.push(result.forward);
  }
  return forwards;
}
