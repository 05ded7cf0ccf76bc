import type { Platform } from '../model/platform';
import type { OutboundMessage, StatusCard, ThreadId } from '../ports/chat-platform';
import type { Logger } from '../ports/logger';
import type { Store } from '../ports/store';
import type { DecidedOn, TurnCheckEnd, TurnChecks } from '../ports/turn-checks';
import type { RunJob } from './run-job';

/** What telling the checks needs: the port, when one is configured. */
export interface ChecksDeps {
  checks?: TurnChecks;
}

/**
 * P21: the runs a person's message queued, told to the checks once routing committed and
 * before they are woken (so queued is written before in progress). Only a conversation the
 * checks cover costs a read (its agents' names); the checks' writes are not waited for, and a
 * failed read is logged: a check never fails a turn.
 */
export async function reportQueued(
  deps: ChecksDeps & { store: Store; logger: Logger },
  message: { platform: Platform; thread: ThreadId },
  jobs: readonly RunJob[],
): Promise<void> {
  const checks = deps.checks;
  const workspaceId = jobs[0]?.lane?.workspaceId;
  if (checks === undefined || workspaceId === undefined || !checks.covers(message.platform, message.thread))
    return;
  await deps.store
    .inWorkspace(workspaceId, (tx) => tx.agents.list(workspaceId))
    .then((agents) => {
      for (const job of jobs) {
        const agent = agents.find((a) => a.id === job.lane?.agentId);
        if (agent !== undefined)
          checks.queued({
            runId: job.runId,
            agent: agent.name,
            platform: message.platform,
            thread: message.thread,
          });
      }
    })
    .catch((error: unknown) =>
      deps.logger.warn({ err: String(error) }, 'queued turns not told to the checks'),
    );
}

/** The turn a check shows, from what a claimed turn knows; null when the checks do not cover it. */
export function checkedTurn(
  deps: ChecksDeps,
  turn: { runId: string; agent: string; platform: Platform; thread: ThreadId | null },
): {
  checks: TurnChecks;
  turn: { runId: string; agent: string; platform: Platform; thread: ThreadId };
} | null {
  const { checks } = deps;
  const { thread } = turn;
  if (checks === undefined || thread === null || !checks.covers(turn.platform, thread)) return null;
  return { checks, turn: { ...turn, thread } };
}

/**
 * P21, P9: a claimed turn's check follows its status card from the start (in progress, the
 * card's rows), whether or not the card is shown yet (P9's sign of life is the thread's, not
 * the check's); the checks coalesce the updates.
 */
export function watchTurnCheck(
  deps: ChecksDeps,
  card: {
    turn(): { runId: string | null; agent: string; platform: Platform; thread: ThreadId };
    observe(listener: (card: StatusCard) => void): void;
    current(): StatusCard;
  },
): void {
  const { runId, ...where } = card.turn();
  const checked = runId === null ? null : checkedTurn(deps, { runId, ...where });
  if (checked === null) return;
  checked.checks.progress(checked.turn, card.current());
  card.observe((now) => checked.checks.progress(checked.turn, now));
}

/** P21: how the turn ended, as its check shows it (P15: a person's Stop is not a failure). */
export function reportTurnEnd(
  deps: ChecksDeps,
  turn: { runId: string; agent: string; platform: Platform; thread: ThreadId | null },
  result: { ok: true; reply: string } | { ok: false; error: string; stoppedBy?: string },
): void {
  const checked = checkedTurn(deps, turn);
  if (checked === null) return;
  const end: TurnCheckEnd = result.ok
    ? { outcome: 'success', reply: result.reply }
    : result.stoppedBy !== undefined
      ? { outcome: 'stopped', by: result.error }
      : { outcome: 'failure', error: result.error };
  checked.checks.ended(checked.turn, end);
}

/** G4, P21: an approval, pending or decided, told to the checks as its card is drawn. */
export function reportApproval(
  deps: ChecksDeps,
  turn: { runId: string; agent: string; platform: Platform | undefined; thread: ThreadId | null },
  message: OutboundMessage,
  decidedOn: DecidedOn | null,
): void {
  const { platform, ...rest } = turn;
  const checked = platform === undefined ? null : checkedTurn(deps, { ...rest, platform });
  if (checked === null || message.content.kind !== 'approval') return;
  checked.checks.approval(checked.turn, message.content.card, decidedOn);
}
