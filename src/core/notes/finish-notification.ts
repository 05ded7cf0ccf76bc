import type { MessageRecord } from '../model/conversation-records';
import type { RunRecord } from '../model/records';

/**
 * N14: a turn started by an agent sends no "reply ready" and no "failed" notification; the
 * agent that waits for it reports itself. Every other run notifies on finish. Question
 * notifications are not affected by this.
 */
export function notifiesOnFinish(
  run: Pick<RunRecord, 'startedByAgentId'>,
  /** R2: a turn started by a paired relay's agent (its trigger note says so) notifies neither. */
  trigger?: Pick<MessageRecord, 'note'> | null,
): boolean {
  return run.startedByAgentId === null && trigger?.note?.remote === undefined;
}
