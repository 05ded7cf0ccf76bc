import { type AwaitOutcome, type AwaitRequest, awaitSignal } from '../../waits/await-signal';
import type { WaitsDeps } from './waits-deps';

/**
 * T1: a wait of run `runId` — on a person, another agent, a push — that gives the run's slot
 * back while it waits and is woken by a notification, its end time or the abort; never a poll.
 */
export function awaitWithoutSlot<T>(
  deps: Pick<WaitsDeps, 'waits' | 'slots' | 'clock'>,
  runId: string,
  request: AwaitRequest<T>,
): Promise<AwaitOutcome<T>> {
  return deps.slots.suspendWhile(runId, () =>
    awaitSignal({ signals: deps.waits, clock: deps.clock }, request),
  );
}
