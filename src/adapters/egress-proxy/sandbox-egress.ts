import type { RunEgress } from '../../core/ports/egress';
import type { SandboxForward } from '../sandbox/sandbox-policy';

/** What a sandboxed process needs to use its run's egress proxy. */
export interface SandboxEgress {
  forwards: SandboxForward[];
  env: Record<string, string>;
}

const NONE: SandboxEgress = { forwards: [], env: {} };

/**
 * X2: the sandbox has no network but its forwards. The run's proxy (started here, on the first
 * call that needs it) appears on the same port of the sandbox's loopback, and the usual proxy
 * variables point at it; loopback itself (the git gateway, other forwards) stays direct.
 */
export async function sandboxEgress(egress: RunEgress | undefined): Promise<SandboxEgress> {
  if (egress === undefined) return NONE;
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
