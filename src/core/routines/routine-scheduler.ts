import { startTimer } from '../ports/clock';
import {
  type ClaimedFiring,
  fireDueRoutines,
  type RoutineFiringDeps,
  SWEEP_BATCH,
  startFiring,
} from './fire-routines';

/** W2: the longest the scheduler sleeps: routines applied by another process are seen by then. */
export const DEFAULT_SWEEP_MS = 30_000;

/** W2: a firing left `claimed` this long belongs to a process that died before posting it. */
export const STALE_CLAIM_MS = 2 * 60_000;

/**
 * W2, T6: fires routines at their times in any number of processes. It sleeps on a timer until
 * the earliest due time (at most `sweepMs`), holding no database connection, slot or lock
 * while it waits (T1); each sweep is one short transaction (`fireDueRoutines`).
 */
export class RoutineScheduler {
  private cancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: RoutineFiringDeps & { sweepMs?: number }) {}

  start(): void {
    this.arm(0);
  }

  /**
   * Sweeps now (a routine was run by hand, or a test), then sleeps as usual. A sweep already
   * under way may have read the routines before the change that asked for this one (W2): it is
   * let finish, then another runs; never two at once.
   */
  async wakeNow(): Promise<void> {
    while (this.running !== null) await this.running;
    if (this.closed) return;
    this.cancel?.();
    await this.tick();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
    await this.running;
  }

  private arm(delayMs: number): void {
    if (this.closed) return;
    this.cancel = startTimer(this.deps.clock, () => void this.tick(), delayMs);
  }

  private tick(): Promise<void> {
    this.cancel = null;
    this.running = this.sweep().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweep(): Promise<void> {
    const { store, clock, logger } = this.deps;
    const sweepMs = this.deps.sweepMs ?? DEFAULT_SWEEP_MS;
    let delay = sweepMs;
    try {
      while (!this.closed && (await fireDueRoutines(this.deps)) === SWEEP_BATCH);
      if (!this.closed) await recoverStaleClaims(this.deps);
      const next = await store.transaction((tx) => tx.routines.earliestDue());
      if (next !== null) delay = Math.min(sweepMs, Math.max(0, next.getTime() - clock.now().getTime()));
    } catch (error) {
      logger.error({ component: 'routines', err: error }, 'routine sweep failed; trying again later');
    }
    this.arm(delay);
  }
}

/** W2: firings whose process died between their claim and their post are started again. */
async function recoverStaleClaims(deps: RoutineFiringDeps): Promise<void> {
  const now = deps.clock.now();
  const claims = await deps.store.transaction(async (tx) => {
    const stale = await tx.routines.leaseStaleClaims(new Date(now.getTime() - STALE_CLAIM_MS), now, 20);
    const out: ClaimedFiring[] = [];
    for (const firing of stale) {
      const routine = await tx.routines.findById(firing.routineId);
      const conversation =
        firing.conversationId === null ? null : await tx.conversations.findById(firing.conversationId);
      const [message] = conversation === null ? [] : await tx.messages.listRecent(conversation.id, 1);
      const binding = (await tx.channelBindings.listForWorkspace(firing.workspaceId)).find(
        (b) => b.spaceId === routine?.spaceId && b.platform === conversation?.platform,
      );
      if (routine === null || conversation === null || message === undefined || binding === undefined) {
        await tx.routines.updateFiring(firing.id, {
          outcome: 'failed',
          reason: 'its routine or channel is gone',
        });
        continue;
      }
      const agent = (await tx.agents.list(firing.workspaceId)).find((a) => a.id === routine.agentId);
      out.push({
        firing,
        routine,
        channel: { platform: binding.platform, channelId: binding.channelId },
        conversationId: conversation.id,
        messageId: message.id,
        avatarUrl: agent?.avatarUrl ?? null,
      });
    }
    return out;
  });
  for (const claim of claims) await startFiring(deps, claim);
}
