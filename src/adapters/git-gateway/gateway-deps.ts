import type { RefUpdate } from '../../core/model/git-gateway';
import type { RunRecord } from '../../core/model/records';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { Metrics } from '../../core/ports/metrics';
import type { ProcessSlots } from '../../core/ports/process-slots';
import type { RunApprovals } from '../../core/ports/run-approvals';
import type { Store } from '../../core/ports/store';
import type { PackInspector } from './pack-inspector';
import type { RunCredentials } from './run-credentials';
import type { UpstreamAuth } from './upstream';

/** G4: what the gateway and pull requests ask of the engine (the TurnEngine provides it). */
export interface GatewayApprovals extends RunApprovals {
  /** Marks due approvals expired and edits their cards. */
  expireApprovals?(): Promise<string[]>;
}

export interface GatewayTimings {
  /** How often a waiting client is told `waiting for approval …`. */
  progressMs: number;
  /** G4: how long an approval waits (the engine's default when unset). */
  approvalTtlMs?: number;
  /** P21: how long a forwarded push waits for its listener before the client hears the result; default 10 s. */
  pushedWaitMs?: number;
}

/** P21: a push upstream accepted: the run, the repository and the ref updates upstream reported done. */
export type PushedListener = (push: { run: RunRecord; repo: string; updates: RefUpdate[] }) => Promise<void>;

export const DEFAULT_GATEWAY_TIMINGS: GatewayTimings = { progressMs: 10_000 };

export interface GitGatewayDeps {
  store: Store;
  approvals: GatewayApprovals;
  credentials: RunCredentials;
  inspector: PackInspector;
  /** GITHUB_GIT_URL: where pushes and fetches go, e.g. https://github.com. */
  upstreamUrl: string;
  auth: UpstreamAuth;
  /** Where waiting packs are spooled. */
  spoolDir: string;
  logger: Logger;
  /** G5: pushes by decision, for `/metrics`; absent: nothing counted. */
  metrics?: Metrics;
  clock: Clock;
  timings: GatewayTimings;
  /** T1: the agents' process slots (the launcher's): a held push gives its run's slot back. */
  processSlots?: ProcessSlots;
  /** P21, P22: told of every push upstream accepted, before the client learns it; absent: nobody. */
  pushed?: PushedListener;
}
