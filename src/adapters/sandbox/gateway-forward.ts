import { gatewayEndpoint } from '../../config/gateway-url';
import type { SandboxForward } from './sandbox-policy';

/**
 * X2, G3: how the gateway at `raw` is carried into a sandbox (`config/gateway-url.ts` decides
 * whether it can be): its port on the sandbox's loopback, the host's side of the forward
 * connecting to the same host and port (TLS and a host name stay as they are end to end).
 */
export function gatewayForward(raw: string): { forward: SandboxForward } | { problem: string } {
  const result = gatewayEndpoint(raw);
  if ('problem' in result) return result;
  const { host, port, byName } = result.endpoint;
  const target = { host, port };
  return { forward: byName ? { port, target, names: [host.toLowerCase()] } : { port, target } };
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
