import type { RunReach } from '../../model/host-reach';
import type { AgentRecord, SpaceRecord } from '../../model/records';
import { isAllowedDomain, normalizeHost } from '../../network/allowed-domains';
import { hostVerdict, runReach } from '../../network/host-verdict';
import type { HostAuthorizer, RunReachCheck } from '../../ports/egress';
import type { ToolAuthorization } from '../../ports/turn-tools';
import { resolveRunGuardrail } from '../approvals/run-guardrail';
import type { ToolKitDeps } from './tool-kit-deps';

export interface HostAuthorizerScope {
  runId: string;
  agent: AgentRecord;
  space: SpaceRecord;
  /** G4: the approval for `summary` through the tool kit's guard (`guardCall`: card, wait, expiry). */
  ask(summary: string, signal: AbortSignal): Promise<ToolAuthorization>;
}

/**
 * X2, G1, G2: the run's per-host decision for its egress proxy. The `network` rule resolved
 * for the run's agent and space (autonomy and fail-closed included) and the workspace's
 * `sandbox.allowedDomains` go through the decision table; an `ask` is an approval card naming
 * the host. Each host is decided once per run (an approved host stays reachable); a decision
 * cut short by a stopped turn is not remembered.
 */
export function createHostAuthorizer(
  deps: Pick<ToolKitDeps, 'store' | 'logger'>,
  scope: HostAuthorizerScope,
): HostAuthorizer {
  const decided = new Map<string, Promise<ToolAuthorization>>();
  const log = deps.logger.child({ component: 'egress', runId: scope.runId });

  const decide = async (host: string, signal: AbortSignal): Promise<ToolAuthorization> => {
    const { decision, reason, allowedDomains } = await networkRule(deps, scope.agent, scope.space);
    const verdict = hostVerdict({ host, listed: isAllowedDomain(host, allowedDomains), decision, reason });
    log.info({ host, decision, verdict: verdict.kind }, 'egress decision');
    if (verdict.kind === 'pass') return { allowed: true };
    if (verdict.kind === 'refuse') return { allowed: false, reason: verdict.reason };
    return scope.ask(`network access to ${host}`, signal);
  };

  return (rawHost, signal) => {
    const host = normalizeHost(rawHost);
    const known = decided.get(host);
    if (known !== undefined) return known;
    const pending = decide(host, signal);
    decided.set(host, pending);
    void pending.then(
      () => {
        if (signal.aborted) decided.delete(host);
      },
      () => decided.delete(host),
    );
    return pending;
  };
}

/**
 * X2: whether the run reaches any host at all, decided once per run from the same rule and
 * list (a failed look-up is asked again on the next call). Under `deny`, or with no allowed
 * domains, calls then need no proxy and no forward (the common, cheap path).
 */
export function createRunReachCheck(
  deps: Pick<ToolKitDeps, 'store'>,
  scope: Pick<HostAuthorizerScope, 'agent' | 'space'>,
): RunReachCheck {
  let known: Promise<RunReach> | undefined;
  return () => {
    known ??= networkRule(deps, scope.agent, scope.space).then(runReach);
    known.catch(() => {
      known = undefined;
    });
    return known;
  };
}

/** G2, G2a, G2b: the `network` rule for this agent and space, and the workspace's allowed domains. */
async function networkRule(deps: Pick<ToolKitDeps, 'store'>, agent: AgentRecord, space: SpaceRecord) {
  return deps.store.inWorkspace(agent.workspaceId, async (tx) => {
    const workspace = await tx.workspaces.findById(agent.workspaceId);
    const resolution = await resolveRunGuardrail(tx, agent, space, 'network');
    return {
      decision: resolution.decision,
      reason: resolution.reason,
      allowedDomains: workspace?.allowedDomains ?? [],
    };
  });
}
