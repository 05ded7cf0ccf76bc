import { PermanentJobError, type RetryPolicy } from '../../core/ports/job-queue';
import type { Logger } from '../../core/ports/logger';

/**
 * What a failed attempt leads to, shared by both queues. The backoff is BullMQ's built-in
 * `exponential` strategy (no jitter), so the in-process queue waits exactly as long.
 */

/** Milliseconds before the retry that follows failed attempt `failedAttempt` (1-based). */
export function retryDelayMs(policy: RetryPolicy, failedAttempt: number): number {
  return Math.round(2 ** (failedAttempt - 1) * policy.backoffMs);
}

export function isFinalFailure(policy: RetryPolicy, attempt: number, error: unknown): boolean {
  return error instanceof PermanentJobError || attempt >= policy.attempts;
}

/** A final failure is an error; the job's run record in the database says what it was. */
export function logJobFailure(
  log: Logger,
  job: { id: string; attempt: number },
  error: unknown,
  final: boolean,
): void {
  const fields = { jobId: job.id, attempt: job.attempt, err: error };
  if (final) log.error(fields, 'job failed; not retrying');
  else log.warn(fields, 'job attempt failed; retrying');
}

/** BullMQ stores `err.message`; a thrown non-Error must still say something. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
