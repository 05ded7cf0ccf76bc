import { pushDecided, pushFinished, runActor } from '../audit/audit-entries';
import type { ApprovalRecord } from '../model/approvals/approval-record';
import type { GitPushRecord, RefUpdate } from '../model/git-gateway';
import type { RunRecord } from '../model/records';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Metrics } from '../ports/metrics';
import { noProcessSlots, type ProcessSlots } from '../ports/process-slots';
import type { ApprovalWait, RunApprovals } from '../ports/run-approvals';
import type { Store } from '../ports/store';
import { pushApprovalDetails, type UpdateFacts } from './push-card';
import { resolveRunAction } from './push-policy';
import { sameUpdates } from './ref-updates';

export interface PushGateDeps {
  store: Store;
  /** G4: the engine's approvals and its one approval wait. */
  approvals: RunApprovals;
  clock: Clock;
  logger: Logger;
  /** G5: pushes by decision, for `/metrics`; absent: nothing counted. */
  metrics?: Metrics;
  /** G4: how long a push's approval waits (the engine's default when unset). */
  approvalTtlMs?: number;
  /** T1: the agents' process slots, given back by the pushing run while its push is held. */
  processSlots?: ProcessSlots;
}

/** One push, as the gateway read it from the client's commands. */
export interface PushRequest {
  run: RunRecord;
  repo: string;
  updates: readonly RefUpdate[];
}

/** What the wire side does while a push is asked about (the gateway keeps the protocol). */
export interface PushHolder {
  /** G4: what the pack really does (force-push, commits), for the card; the body is spooled. */
  inspect(): Promise<ReadonlyMap<string, UpdateFacts>>;
  /** The card is posted and the push is held: the client is told so, and kept informed. */
  held(summary: string): void;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/**
 * The gate's verdict. `forward`: send the push upstream, then `finish` its record; `held`: the
 * client was told it waited. `refuse`: nothing is sent; `status` is git's `ng` reason and
 * `lines` the `remote:` lines. `gone`: the client left while the push was held.
 */
export type PushVerdict =
  | { kind: 'forward'; push: GitPushRecord; held: boolean }
  | { kind: 'refuse'; status: string; lines: string[]; held: boolean }
  | { kind: 'gone' };

/**
 * G2, G4, G5: the push decision at the moment of the push, in the core: the run's rules
 * (`deny` refuses, `allow` forwards), an `ask` released by the approval of an identical push
 * whose client went away, else an approval card and the engine's one approval wait, and the
 * approval re-checked to be bound to exactly this push before it is forwarded. Every push is
 * recorded with its decision and how it ended.
 */
export class PushGate {
  constructor(private readonly deps: PushGateDeps) {}

  async decide(request: PushRequest, holder: PushHolder): Promise<PushVerdict> {
    const { deps } = this;
    const resolution = await resolveRunAction(deps.store, request.run, 'push_to_remote');
    const log = deps.logger.child({ runId: request.run.id, repo: request.repo });
    log.info({ updates: request.updates, decision: resolution.decision }, 'push received');
    deps.metrics?.gatewayPush(resolution.decision);

    if (resolution.decision === 'deny') {
      await this.record(request, {
        decision: 'deny',
        status: 'refused',
        reason: resolution.reason,
        approvalId: null,
      });
      return {
        kind: 'refuse',
        status: 'denied by guardrail push_to_remote',
        lines: [`Summon: push to ${request.repo} refused.`, ...resolution.reason.split('\n')],
        held: false,
      };
    }
    if (resolution.decision === 'allow') {
      const push = await this.record(request, {
        decision: 'allow',
        status: 'forwarded',
        reason: resolution.reason,
        approvalId: null,
      });
      return { kind: 'forward', push, held: false };
    }
    // ask: an earlier identical push whose client went away may have been approved since.
    const released = await this.releaseAbandoned(request);
    if (released !== null) {
      const push = await this.record(request, {
        decision: 'ask',
        status: 'forwarded',
        reason: `released by the approval of an identical earlier push (${released.id})`,
        approvalId: released.approvalId,
      });
      return { kind: 'forward', push, held: false };
    }
    return this.ask(request, holder);
  }

  /** The push's end as the upstream answered it (recorded before the client learns it). */
  async finish(pushId: string, status: 'forwarded' | 'refused', reason?: string): Promise<void> {
    await this.deps.store.transaction(async (tx) => {
      const push = await tx.gitPushes.setStatus(pushId, {
        status,
        finishedAt: this.deps.clock.now(),
        ...(reason === undefined ? {} : { reason }),
      });
      if (push !== null) await tx.audit.append(push.workspaceId, pushFinished(push)); // O4
    });
  }

  private async ask(request: PushRequest, holder: PushHolder): Promise<PushVerdict> {
    const details = pushApprovalDetails(request.repo, request.updates, await holder.inspect());
    const approval = await this.requestApproval(request, details);
    if (approval === null) {
      // G2a: an ask that cannot reach anyone is a no.
      await this.record(request, {
        decision: 'ask',
        status: 'refused',
        reason: 'the approval could not be posted',
        approvalId: null,
      });
      return {
        kind: 'refuse',
        status: 'approval could not be requested',
        lines: [
          'Summon: this push needs approval, but the approval card could not be posted; nothing was sent.',
        ],
        held: false,
      };
    }
    const push = await this.record(request, {
      decision: 'ask',
      status: 'waiting',
      reason: details.summary,
      approvalId: approval.id,
    });
    holder.held(details.summary);
    const outcome = await this.awaitHeld(request, approval.id, holder.signal);
    if (outcome === 'aborted') {
      await this.deps.store.transaction((tx) =>
        tx.gitPushes.setStatus(
          push.id,
          { status: 'abandoned', reason: 'the client went away while waiting' },
          'waiting',
        ),
      );
      return { kind: 'gone' };
    }
    if (outcome !== 'allow') return this.refuseUnapproved(push.id, outcome);
    return this.forwardIfBound(request, push, approval.id);
  }

  /** G4: the approval card for this push; null (and logged) when it could not be posted. */
  private requestApproval(
    request: PushRequest,
    details: ReturnType<typeof pushApprovalDetails>,
  ): Promise<ApprovalRecord | null> {
    const { deps } = this;
    return deps.approvals
      .requestApproval({
        runId: request.run.id,
        action: 'push_to_remote',
        details,
        ...(deps.approvalTtlMs === undefined ? {} : { ttlMs: deps.approvalTtlMs }),
      })
      .catch((error: unknown) => {
        deps.logger.error(
          { err: error, runId: request.run.id, repo: request.repo },
          'could not ask for approval',
        );
        return null;
      });
  }

  /**
   * G4, T1: the engine's one approval wait (woken by the decision, no polling); a client
   * that leaves ends it. T1: the pushing process is idle meanwhile, so its run gives its
   * process slot back and takes one again only to run on.
   */
  private awaitHeld(request: PushRequest, approvalId: string, signal: AbortSignal): Promise<ApprovalWait> {
    const { deps } = this;
    return (deps.processSlots ?? noProcessSlots).suspendWhile(
      request.run.id,
      () => deps.approvals.awaitApproval(approvalId, signal),
      signal,
    );
  }

  /** A held push the approver denied or nobody answered in time: refused, nothing sent. */
  private async refuseUnapproved(pushId: string, outcome: 'denied' | 'expired'): Promise<PushVerdict> {
    const reason = outcome === 'expired' ? 'approval expired' : 'denied by approver';
    await this.finish(pushId, 'refused', reason);
    return {
      kind: 'refuse',
      status: reason,
      lines: [
        outcome === 'expired'
          ? 'Summon: nobody answered the approval card in time; the push was not sent.'
          : 'Summon: the push was denied on its approval card; nothing was sent.',
      ],
      held: true,
    };
  }

  /** G4: forwarding re-checks that the approval is bound to exactly this push. */
  private async forwardIfBound(
    request: PushRequest,
    push: GitPushRecord,
    approvalId: string,
  ): Promise<PushVerdict> {
    const bound = await this.deps.store.inWorkspace(request.run.workspaceId, async (tx) => ({
      approval: await tx.approvals.findById(approvalId),
      push: (await tx.gitPushes.listWaitingForRun(request.run.id)).find((p) => p.id === push.id) ?? null,
    }));
    if (
      bound.approval?.status !== 'approved' ||
      bound.push?.approvalId !== approvalId ||
      !sameUpdates(bound.push, { repo: request.repo, updates: request.updates })
    ) {
      await this.finish(push.id, 'refused', 'the approval does not match this push');
      return { kind: 'refuse', status: 'approval does not match this push', lines: [], held: true };
    }
    return { kind: 'forward', push, held: true };
  }

  /** An abandoned push with exactly these updates whose approval has since been given; claimed once. */
  private async releaseAbandoned(request: PushRequest): Promise<GitPushRecord | null> {
    const { deps } = this;
    const { run, repo, updates } = request;
    const candidates = await deps.store.inWorkspace(run.workspaceId, (tx) =>
      tx.gitPushes.listAbandoned(run.id, repo),
    );
    for (const candidate of candidates) {
      if (candidate.approvalId === null) continue;
      if (!sameUpdates(candidate, { repo, updates })) continue;
      if ((await deps.approvals.approvalState(candidate.approvalId)) !== 'allow') continue;
      const claimed = await deps.store.inWorkspace(run.workspaceId, (tx) =>
        tx.gitPushes.setStatus(
          candidate.id,
          { status: 'released', finishedAt: deps.clock.now() },
          'abandoned',
        ),
      );
      if (claimed !== null) return claimed;
    }
    return null;
  }

  private record(
    request: PushRequest,
    fields: Pick<GitPushRecord, 'decision' | 'status' | 'reason' | 'approvalId'>,
  ): Promise<GitPushRecord> {
    const { run } = request;
    return this.deps.store.inWorkspace(run.workspaceId, async (tx) => {
      const push = await tx.gitPushes.insert(run.workspaceId, {
        runId: run.id,
        repo: request.repo,
        updates: [...request.updates],
        ...fields,
      });
      await tx.audit.append(run.workspaceId, pushDecided(push, await runActor(tx, run.id))); // O4
      if (fields.status === 'refused') {
        return (
          (await tx.gitPushes.setStatus(push.id, { status: 'refused', finishedAt: this.deps.clock.now() })) ??
          push
        );
      }
      return push;
    });
  }
}
