import type { RunReach } from '../../core/model/host-reach';
import { normalizeHost } from '../../core/network/allowed-domains';
import type { EgressProxies, HostAuthorizer, RunEgress, RunReachCheck } from '../../core/ports/egress';
import type { Logger } from '../../core/ports/logger';
import { type StartedEgressProxy, startEgressProxy } from './egress-proxy';
import { type HostResolver, systemResolver } from './host-resolver';

export interface RunEgressProxiesOptions {
  logger: Logger;
  /** X2: never reached through any proxy (the git gateway's port, Summon's HTTP port). */
  forbiddenPorts: readonly number[];
  /** Default: the system resolver. Tests map their test domain to 127.0.0.1 here. */
  resolve?: HostResolver;
}

const REACHABLE: RunReach = { reachable: true };
/** Without a run-wide answer every call gets the proxy, which decides host by host. */
const everyHostDecided: RunReachCheck = () => Promise.resolve(REACHABLE);

interface RunEntry {
  started: Promise<StartedEgressProxy> | null;
}

/**
 * X2: one filtering proxy per run, started on the first call that needs it (a run whose
 * commands never reach out costs nothing) and closed by `release` when the run ends.
 */
export class RunEgressProxies implements EgressProxies {
  private readonly runs = new Map<string, RunEntry>();

  constructor(private readonly options: RunEgressProxiesOptions) {}

  forRun(runId: string, authorizeHost: HostAuthorizer, reach: RunReachCheck = everyHostDecided): RunEgress {
    const entry: RunEntry = this.runs.get(runId) ?? { started: null };
    this.runs.set(runId, entry);
    const always = new Set<string>();
    let refusals = new Set<string>();
    const log = this.options.logger.child({ component: 'egress', runId });
    const authorize: HostAuthorizer = (host, signal) =>
      always.has(normalizeHost(host)) ? Promise.resolve({ allowed: true }) : authorizeHost(host, signal);
    return {
      // A host the run always reaches (a CLI agent's model API) needs the proxy whatever the rules.
      reach: () => (always.size > 0 ? Promise.resolve(REACHABLE) : reach()),
      proxyPort: async () => {
        entry.started ??= startEgressProxy({
          authorizeHost: authorize,
          resolve: this.options.resolve ?? systemResolver,
          forbiddenPorts: this.options.forbiddenPorts,
          log,
          onRefusal: (sentence) => refusals.add(sentence),
        });
        return (await entry.started).port;
      },
      alwaysAllow: (host) => {
        always.add(normalizeHost(host));
      },
      takeRefusals: () => {
        const taken = [...refusals];
        refusals = new Set();
        return taken;
      },
    };
  }

  async release(runId: string): Promise<void> {
    const entry = this.runs.get(runId);
    this.runs.delete(runId);
    if (entry?.started != null) await (await entry.started).close();
  }

  /** Closes every run's proxy (shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((runId) => this.release(runId)));
  }
}
