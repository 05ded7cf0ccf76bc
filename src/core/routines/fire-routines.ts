import { queuedRun } from '../engine/routing/queued-run';
import type { RunJob } from '../engine/run-job';
import type { Platform } from '../model/platform';
import type { ChannelBindingRecord } from '../model/records';
import type { RoutineRecord } from '../model/routines/routine';
import type { RoutineFiring } from '../model/routines/routine-firing';
import type { ChatPlatform } from '../ports/chat-platform';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Store, StoreTx } from '../ports/store';
import { planFiring } from './plan-firing';
import { routineBudgetRefusal } from './routine-budget';
import { postingBinding } from './routine-channel';
import { triggerInWords } from './routine-words';

/** What firing routines needs: the store, the chat to post in, and the engine's wake-up. */
export interface RoutineFiringDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  clock: Clock;
  logger: Logger;
  /** T6: the engine's own wake-up of a stored queued run (a slot here, else the queue). */
  wake(job: RunJob): Promise<void>;
}

/** A firing claimed and stored with its conversation, its thread not yet posted. */
export interface ClaimedFiring {
  firing: RoutineFiring;
  routine: RoutineRecord;
  channel: { platform: Platform; channelId: string };
  conversationId: string;
  messageId: string;
  avatarUrl: string | null;
}

/** W4: the one message that says a routine's budget stopped its firings. */
export interface FiringNotice {
  platform: Platform;
  channelId: string;
  text: string;
}

interface BudgetNotice {
  notice: FiringNotice;
}

/** W2: how many due routines one sweep transaction claims. */
export const SWEEP_BATCH = 100;

/**
 * W2, T6: claims the routines due now and starts each as a turn. Exactly once: the routines are
 * locked (`SKIP LOCKED`: two workers share them), each firing's key (routine, scheduled time)
 * is inserted `ON CONFLICT DO NOTHING` in the same transaction that stores its conversation and
 * trigger message and moves the routine to its next time. Posting and the run follow the commit.
 * Returns how many routines it swept (a full batch: sweep again).
 */
export async function fireDueRoutines(deps: RoutineFiringDeps): Promise<number> {
  const now = deps.clock.now();
  const { swept, claimed } = await deps.store.transaction(async (tx) => {
    const due = await tx.routines.lockDue(now, SWEEP_BATCH);
    const bindings = new Map<string, ChannelBindingRecord[]>();
    const out: (ClaimedFiring | BudgetNotice)[] = [];
    for (const routine of due) {
      if (!bindings.has(routine.workspaceId))
        bindings.set(routine.workspaceId, await tx.channelBindings.listForWorkspace(routine.workspaceId));
      const claim = await claimFiring(tx, deps, routine, bindings.get(routine.workspaceId) ?? [], now);
      if (claim !== null) out.push(claim);
    }
    return { swept: due.length, claimed: out };
  });
  await Promise.all(
    claimed.map((claim) => ('notice' in claim ? postNotice(deps, claim.notice) : startFiring(deps, claim))),
  );
  return swept;
}

async function claimFiring(
  tx: StoreTx,
  deps: RoutineFiringDeps,
  routine: RoutineRecord,
  bindings: readonly ChannelBindingRecord[],
  now: Date,
): Promise<ClaimedFiring | BudgetNotice | null> {
  const plan = planFiring(routine, routine.nextDueAt ?? now, now);
  await tx.routines.setNextDue(routine.id, plan.nextDueAt);
  const binding = postingBinding(bindings, routine.spaceId, deps.platforms);
  const base = { workspaceId: routine.workspaceId, routineId: routine.id, firedAt: now, ...plan };
  if (!plan.fire) {
    // W3: `skip`: recorded, with the times missed, and nothing runs.
    await tx.routines.claimFiring({ ...base, outcome: 'skipped', reason: null });
    return null;
  }
  if (binding === undefined) {
    const reason = `space "${routine.space}" has no channel on a chat platform this Summon runs`;
    await tx.routines.claimFiring({ ...base, outcome: 'failed', reason });
    deps.logger.warn({ component: 'routines', routineId: routine.id }, `routine not fired: ${reason}`);
    return null;
  }
  const overBudget = await routineBudgetRefusal(tx, routine, now);
  if (overBudget !== null) {
    // W4: it does not fire, and says so once: not again while it stays over budget.
    const [last] = await tx.routines.history(routine.id, 1);
    await tx.routines.claimFiring({ ...base, outcome: 'over_budget', reason: overBudget });
    if (last?.outcome === 'over_budget') return null;
    return { notice: { platform: binding.platform, channelId: binding.channelId, text: overBudget } };
  }
  const firing = await tx.routines.claimFiring({ ...base, outcome: 'claimed', reason: null });
  if (firing === null) return null; // W2: already fired for that time.
  const stored = await storeConversation(tx, routine, binding.platform);
  await tx.routines.updateFiring(firing.id, { outcome: 'claimed', conversationId: stored.conversationId });
  const agent = (await tx.agents.list(routine.workspaceId)).find((a) => a.id === routine.agentId);
  return {
    firing,
    routine,
    channel: { platform: binding.platform, channelId: binding.channelId },
    ...stored,
    avatarUrl: agent?.avatarUrl ?? null,
  };
}

/** W2: a new conversation of the space, its first message the routine's prompt (or `text`). */
export async function storeConversation(
  tx: StoreTx,
  routine: RoutineRecord,
  platform: Platform,
  text: string = routine.prompt,
) {
  const conversation = await tx.conversations.insert(routine.workspaceId, {
    spaceId: routine.spaceId,
    platform,
    threadId: null,
    title: `Routine ${routine.name}`,
    ownerAgentId: routine.agentId,
    createdByAgentId: null,
  });
  const message = await tx.messages.insert(routine.workspaceId, {
    conversationId: conversation.id,
    authorKind: 'system',
    authorAgentId: null,
    authorMemberId: null,
    text,
    mentions: { agents: [{ agentId: routine.agentId, name: routine.agent }], members: [] },
    platformMessageRef: null,
    note: null,
  });
  return { conversationId: conversation.id, messageId: message.id };
}

/**
 * W2: posts the thread's head (`Routine <name> · <trigger in words>`, under the agent's name),
 * then queues the run in that thread and wakes it. A post that fails marks the firing failed.
 */
export async function startFiring(deps: RoutineFiringDeps, claim: ClaimedFiring): Promise<void> {
  const { routine, firing } = claim;
  const log = deps.logger.child({ component: 'routines', routineId: routine.id, firingId: firing.id });
  const platform = deps.platforms.get(claim.channel.platform);
  try {
    if (platform === undefined) throw new Error(`no ${claim.channel.platform} connection to post in`);
    const posted = await platform.startThread(claim.channel.channelId, {
      as: { kind: 'agent', name: routine.agent, avatarUrl: claim.avatarUrl },
      content: { kind: 'text', text: `Routine ${routine.name} · ${triggerInWords(routine.trigger)}` },
    });
    const runId = await deps.store.inWorkspace(routine.workspaceId, async (tx) => {
      await tx.conversations.setThreadId(claim.conversationId, posted.thread);
      const run = await tx.runs.insert(
        queuedRun(
          {
            workspaceId: routine.workspaceId,
            agentId: routine.agentId,
            conversationId: claim.conversationId,
            triggerMessageId: claim.messageId,
            createdAt: deps.clock.now(),
          },
          { by: 'person', memberId: null },
        ),
      );
      await tx.routines.updateFiring(firing.id, { outcome: 'started', runId: run.id });
      return run.id;
    });
    const lane = {
      workspaceId: routine.workspaceId,
      agentId: routine.agentId,
      conversationId: claim.conversationId,
      spaceId: routine.spaceId,
    };
    await deps.wake({ runId, lane });
    log.info({ runId, scheduledFor: firing.scheduledFor.toISOString() }, 'routine fired');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.error({ err: error }, 'routine could not start');
    await deps.store.inWorkspace(routine.workspaceId, (tx) =>
      tx.routines.updateFiring(firing.id, { outcome: 'failed', reason: `could not start: ${reason}` }),
    );
  }
}

/** W4: a system message at the top of the routine's channel; a failed post is logged, not retried. */
export async function postNotice(deps: RoutineFiringDeps, notice: FiringNotice): Promise<void> {
  try {
    await deps.platforms.get(notice.platform)?.startThread(notice.channelId, {
      as: { kind: 'system' },
      content: { kind: 'text', text: notice.text },
    });
  } catch (error) {
    deps.logger.error({ component: 'routines', err: error }, 'routine budget notice could not be posted');
  }
}
