import { ValidationError } from '../../core/errors';
import type { EnqueueOptions, RetryPolicy } from '../../core/ports/job-queue';

/**
 * Checks both queues make before a job is accepted, so the in-process queue refuses exactly
 * what BullMQ would refuse (or silently change) and a deployment that adds Redis later sees
 * no new failures.
 */

/** BullMQ reserves `:` in custom ids and refuses integer ids (they are its own counter). */
export function assertJobId(id: string): void {
  if (id.length === 0) throw new ValidationError('A job id must not be empty.');
  if (id.includes(':')) {
    throw new ValidationError(
      `The job id "${id}" contains ":", which BullMQ reserves; use another separator.`,
    );
  }
  if (`${Number.parseInt(id, 10)}` === id) {
    throw new ValidationError(`The job id "${id}" is an integer, which BullMQ reserves; add a prefix.`);
  }
}

/** Returns the delay in whole milliseconds (0 when none). */
export function delayOf(options: EnqueueOptions | undefined): number {
  const delayMs = options?.delayMs ?? 0;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new ValidationError(`delayMs must be a finite number of milliseconds >= 0, got ${delayMs}.`);
  }
  return Math.round(delayMs);
}

export function assertConcurrency(concurrency: number): void {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ValidationError(`concurrency must be an integer >= 1, got ${concurrency}.`);
  }
}

export function assertRetryPolicy(policy: RetryPolicy): void {
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) {
    throw new ValidationError(`retry attempts must be an integer >= 1, got ${policy.attempts}.`);
  }
  if (!Number.isFinite(policy.backoffMs) || policy.backoffMs < 0) {
    throw new ValidationError(`retry backoffMs must be >= 0, got ${policy.backoffMs}.`);
  }
}

/**
 * Serialises job data, refusing anything JSON would drop or change on the way through Redis
 * (functions, `undefined` in arrays, `NaN`, `Date`, `Map`, class instances, cycles), so a
 * handler gets back exactly what was enqueued. `undefined` object properties are left out, as
 * `JSON.stringify` does.
 */
export function serializeJobData(data: unknown): string {
  const problem = findNonJson(data, '', new Set());
  if (problem !== undefined) {
    throw new ValidationError('Job data must be plain JSON.', [problem]);
  }
  return JSON.stringify(data);
}

function findNonJson(
  value: unknown,
  path: string,
  seen: Set<object>,
): { path: string; message: string } | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { path, message: `${value} is not a JSON number` };
  }
  if (typeof value !== 'object') return { path, message: `${typeof value} is not JSON` };
  if (seen.has(value)) return { path, message: 'a circular reference is not JSON' };
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const problem = findNonJson(item, `${path}[${index}]`, seen);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      const kind = value.constructor?.name ?? 'object';
      return { path, message: `a ${kind} instance is not plain JSON; convert it first` };
    }
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const problem = findNonJson(item, path ? `${path}.${key}` : key, seen);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}
