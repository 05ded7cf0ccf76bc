import type { RunReach } from '../model/host-reach';
import type { ToolAuthorization } from './tool-authorization';

/**
 * X2: may the run reach `host` now? Built per run by the tool kit from the `network` rule and
 * the workspace's allowed domains; `ask` waits for an approval (aborted with `signal`).
 */
export type HostAuthorizer = (host: string, signal: AbortSignal) => Promise<ToolAuthorization>;

/**
 * X2: whether the run can reach any host at all (the `network` rule and the allowed domains,
 * once per run). Built with the authorizer by the tool kit.
 */
export type RunReachCheck = () => Promise<RunReach>;

/** X2: a run's egress: its filtering proxy, started on first use. */
export interface RunEgress {
  /**
   * Whether any host could pass (asked once per run; any host the run always reaches counts):
   * when not, a call needs neither the proxy nor its forward, and `reason` says why.
   */
  reach(): Promise<RunReach>;
  /** The proxy's TCP port on the host's loopback (starts the proxy on the first call). */
  proxyPort(): Promise<number>;
  /** A CLI agent's model API: reachable through the proxy for the rest of the run, unasked. */
  alwaysAllow(host: string): void;
  /**
   * The refusal sentences since the last call (each once), so a command's result can say why
   * its connection failed (an HTTPS client shows only "403").
   */
  takeRefusals(): string[];
}

/** X2: one filtering proxy per run, closed when the run's workspace is released. */
export interface EgressProxies {
  /** `reach` defaults to "reachable" (every call gets the proxy, which decides host by host). */
  forRun(runId: string, authorizeHost: HostAuthorizer, reach?: RunReachCheck): RunEgress;
  release(runId: string): Promise<void>;
}
