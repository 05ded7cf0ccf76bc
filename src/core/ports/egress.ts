import type { ToolAuthorization } from './turn-tools';

/**
 * X2: may the run reach `host` now? Built per run by the tool kit from the `network` rule and
 * the workspace's allowed domains; `ask` waits for an approval (aborted with `signal`).
 */
export type HostAuthorizer = (host: string, signal: AbortSignal) => Promise<ToolAuthorization>;

/** X2: a run's egress: its filtering proxy, started on first use. */
export interface RunEgress {
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
  forRun(runId: string, authorizeHost: HostAuthorizer): RunEgress;
  release(runId: string): Promise<void>;
}
