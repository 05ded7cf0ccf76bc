import type { GitPushRecord } from '../../model/git-gateway';
import type { RunRecord } from '../../model/records';
import { annotateApproval } from '../approvals/approval-endings';
import type { RecoveryDeps } from './recovery-deps';

/** G5, T2: on the card of a push that was held at the gateway when the process holding it died. */
export const PUSH_AGAIN_LINE =
  'The process holding this push stopped before it was decided: nothing was sent, and it must be pushed again (an approval given here still lets the identical push through once).';

/** T2: what the agent is told about its interrupted call when it held a push. */
export const pushAgainNote = (pushes: readonly GitPushRecord[]): string =>
  `The push to ${[...new Set(pushes.map((p) => p.repo))].join(', ')} was held for approval when the worker stopped: it was not sent. Push again.`;

/**
 * G5, T2: the pushes run `run` had held at the git gateway when its process died (still
 * `waiting`, with nobody left to wait) are not lost silently: each becomes `abandoned` and its
 * approval card says it must be pushed again. Returns the pushes it moved.
 */
export async function abandonHeldPushes(
  deps: Pick<RecoveryDeps, 'store' | 'platforms' | 'logger'>,
  run: RunRecord,
): Promise<GitPushRecord[]> {
  const moved = await deps.store.inWorkspace(run.workspaceId, async (tx) => {
    const abandoned: GitPushRecord[] = [];
    for (const push of await tx.gitPushes.listWaitingForRun(run.id)) {
      const changed = await tx.gitPushes.setStatus(
        push.id,
        { status: 'abandoned', reason: 'its worker stopped while it waited for approval; push again' },
        'waiting',
      );
      if (changed !== null) abandoned.push(changed);
    }
    return abandoned;
  });
  for (const push of moved) {
    deps.logger.warn(
      { runId: run.id, pushId: push.id, repo: push.repo },
      'held push abandoned: its worker stopped',
    );
    if (push.approvalId !== null) {
      await annotateApproval(deps, { id: push.approvalId, workspaceId: run.workspaceId }, PUSH_AGAIN_LINE);
    }
  }
  return moved;
}
