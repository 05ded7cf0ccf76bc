import { ValidationError } from '../../src/core/errors';
import {
  type JobQueue,
  PermanentJobError,
  QueueClosedError,
  type QueuedJob,
  type RetryPolicy,
} from '../../src/core/ports/job-queue';
import { type Logger, silentLogger } from '../../src/core/ports/logger';

export interface QueueContractOptions {
  retry: RetryPolicy;
  closeTimeoutMs: number;
  logger: Logger;
}

/** Makes a fresh, empty queue (its own name) each call. */
export type QueueFactory = <T>(options: QueueContractOptions) => JobQueue<T>;

/** Small delays keep every test well under a second or two. */
const TEST_RETRY: RetryPolicy = { attempts: 3, backoffMs: 20 };

/**
 * The behaviour every `JobQueue` shares (in-process and BullMQ), registered as jest tests.
 * Each test opens its own queues; they are closed after it.
 */
export function describeQueueContract(name: string, factory: QueueFactory): void {
  describe(`${name}: JobQueue contract`, () => {
    const opened: JobQueue<unknown>[] = [];
    const open = <T>(options: Partial<QueueContractOptions> = {}): JobQueue<T> => {
      const queue = factory<T>({ retry: TEST_RETRY, closeTimeoutMs: 5000, logger: silentLogger, ...options });
      opened.push(queue);
      return queue;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((queue) => queue.close()));
    });

    it('processes a job once, with its data and attempt 1', async () => {
      const queue = open<{ runId: string; tags: string[] }>();
      const seen: Array<Omit<QueuedJob<unknown>, 'signal'>> = [];
      expect(await queue.enqueue({ id: 'run-a', data: { runId: 'r1', tags: ['x', 'y'] } })).toBe(true);
      queue.process(async ({ id, data, attempt }) => void seen.push({ id, data, attempt }), {
        concurrency: 2,
      });
      await waitFor(() => seen.length === 1);
      await sleep(100);
      expect(seen).toEqual([{ id: 'run-a', data: { runId: 'r1', tags: ['x', 'y'] }, attempt: 1 }]);
    });

    it('counts the jobs not yet started as its depth (waiting and delayed, not running)', async () => {
      const queue = open<{ n: number }>();
      expect(await queue.depth()).toBe(0);
      await queue.enqueue({ id: 'depth-a', data: { n: 1 } });
      await queue.enqueue({ id: 'depth-b', data: { n: 2 } }, { delayMs: 60_000 });
      expect(await queue.depth()).toBe(2);
      const release = deferred();
      const started: number[] = [];
      queue.process(
        async ({ data }) => {
          started.push(data.n);
          await release.promise;
        },
        { concurrency: 1 },
      );
      await waitFor(() => started.length === 1);
      expect(await queue.depth()).toBe(1);
      release.resolve();
    });

    it('P6: does not add a job whose id is already waiting', async () => {
      const queue = open<{ n: number }>();
      expect(await queue.enqueue({ id: 'run-dup', data: { n: 1 } })).toBe(true);
      expect(await queue.enqueue({ id: 'run-dup', data: { n: 2 } })).toBe(false);
      const seen: number[] = [];
      queue.process(async ({ data }) => void seen.push(data.n), { concurrency: 1 });
      await waitFor(() => seen.length === 1);
      await sleep(100);
      expect(seen).toEqual([1]);
    });

    it('does not add a job whose id is delayed or running', async () => {
      const queue = open<{ n: number }>();
      expect(await queue.enqueue({ id: 'run-later', data: { n: 1 } }, { delayMs: 300 })).toBe(true);
      expect(await queue.enqueue({ id: 'run-later', data: { n: 2 } })).toBe(false);

      const release = deferred();
      const started: string[] = [];
      queue.process(
        async ({ id }) => {
          started.push(id);
          await release.promise;
        },
        { concurrency: 1 },
      );
      expect(await queue.enqueue({ id: 'run-now', data: { n: 3 } })).toBe(true);
      await waitFor(() => started.includes('run-now'));
      expect(await queue.enqueue({ id: 'run-now', data: { n: 4 } })).toBe(false);
      release.resolve();
      await waitFor(() => started.length === 2);
      await sleep(100);
      expect(started).toEqual(['run-now', 'run-later']);
    });

    it('accepts the id of a completed job again (a wake-up of the same run)', async () => {
      const queue = open<{ n: number }>();
      const seen: number[] = [];
      queue.process(async ({ data }) => void seen.push(data.n), { concurrency: 1 });
      await queue.enqueue({ id: 'run-again', data: { n: 1 } });
      await waitFor(() => seen.length === 1);
      // The handler has returned; the queue forgets the job as it records the completion.
      await waitFor(() => queue.enqueue({ id: 'run-again', data: { n: 2 } }));
      await waitFor(() => seen.length === 2);
      expect(seen).toEqual([1, 2]);
    });

    it('retries a failing handler with exponential backoff until it succeeds', async () => {
      const queue = open<{ payload: string }>({ retry: { attempts: 3, backoffMs: 40 } });
      const calls: Array<{ attempt: number; at: number; payload: string }> = [];
      queue.process(
        async ({ attempt, data }) => {
          calls.push({ attempt, at: Date.now(), payload: data.payload });
          data.payload = 'changed by a failed attempt';
          if (attempt < 3) throw new Error(`transient failure ${attempt}`);
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-flaky', data: { payload: 'original' } });
      await waitFor(() => calls.length === 3);
      await sleep(150);
      expect(calls.map((call) => call.attempt)).toEqual([1, 2, 3]);
      // Each attempt reads the job afresh: a handler's changes to its copy do not carry over.
      expect(calls.map((call) => call.payload)).toEqual(['original', 'original', 'original']);
      const [first, second, third] = calls.map((call) => call.at);
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(35);
      expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(75);
    });

    it('stops after the configured attempts, then accepts the id again', async () => {
      const queue = open<{ n: number }>({ retry: { attempts: 2, backoffMs: 10 } });
      const attempts: number[] = [];
      queue.process(
        async ({ attempt }) => {
          attempts.push(attempt);
          throw 'not even an Error';
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-doomed', data: { n: 1 } });
      await waitFor(() => attempts.length === 2);
      await waitFor(() => queue.enqueue({ id: 'run-doomed', data: { n: 2 } }));
      await waitFor(() => attempts.length === 4);
      await sleep(100);
      expect(attempts).toEqual([1, 2, 1, 2]);
    });

    it('logs a failed attempt as a warning and the final failure as an error, once each', async () => {
      const lines: Array<{ level: string; message: string; fields: object }> = [];
      const queue = open<{ n: number }>({
        retry: { attempts: 2, backoffMs: 10 },
        logger: recordingLogger(lines),
      });
      queue.process(
        async () => {
          throw new Error('model unavailable');
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-logged', data: { n: 1 } });
      await waitFor(() => lines.length === 2);
      await sleep(100);
      expect(lines.map(({ level, fields }) => [level, fields])).toEqual([
        ['warn', expect.objectContaining({ jobId: 'run-logged', attempt: 1, err: expect.any(Error) })],
        ['error', expect.objectContaining({ jobId: 'run-logged', attempt: 2, err: expect.any(Error) })],
      ]);
    });

    it('does not retry a PermanentJobError', async () => {
      const queue = open<{ n: number }>();
      const attempts: number[] = [];
      queue.process(
        async ({ attempt }) => {
          attempts.push(attempt);
          throw new PermanentJobError('the run no longer exists');
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-gone', data: { n: 1 } });
      await waitFor(() => attempts.length === 1);
      await waitFor(() => queue.enqueue({ id: 'run-gone', data: { n: 2 } }));
      await waitFor(() => attempts.length === 2);
      await sleep(150);
      expect(attempts).toEqual([1, 1]);
    });

    it('runs at most `concurrency` handlers at once', async () => {
      const queue = open<{ n: number }>();
      let running = 0;
      let mostAtOnce = 0;
      let done = 0;
      for (let n = 0; n < 7; n += 1) await queue.enqueue({ id: `run-c${n}`, data: { n } });
      queue.process(
        async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await sleep(40);
          running -= 1;
          done += 1;
        },
        { concurrency: 3 },
      );
      await waitFor(() => done === 7);
      expect(mostAtOnce).toBe(3);
    });

    it('runs jobs in the order they were enqueued with concurrency 1', async () => {
      const queue = open<{ n: number }>();
      for (let n = 0; n < 6; n += 1) await queue.enqueue({ id: `run-o${n}`, data: { n } });
      const order: number[] = [];
      queue.process(async ({ data }) => void order.push(data.n), { concurrency: 1 });
      await waitFor(() => order.length === 6);
      expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('does not run a delayed job before its delay', async () => {
      const queue = open<{ name: string }>();
      const ranAt = new Map<string, number>();
      queue.process(async ({ data }) => void ranAt.set(data.name, Date.now()), { concurrency: 1 });
      const enqueuedAt = Date.now();
      await queue.enqueue({ id: 'run-delayed', data: { name: 'delayed' } }, { delayMs: 300 });
      await queue.enqueue({ id: 'run-immediate', data: { name: 'immediate' } });
      await waitFor(() => ranAt.size === 2);
      expect((ranAt.get('delayed') ?? 0) - enqueuedAt).toBeGreaterThanOrEqual(290);
      expect(ranAt.get('immediate') ?? Number.POSITIVE_INFINITY).toBeLessThan(ranAt.get('delayed') ?? 0);
    });

    it('close() stops taking jobs and waits for the job in progress', async () => {
      const queue = open<{ n: number }>();
      const started: string[] = [];
      let finished = false;
      let aborted = false;
      queue.process(
        async ({ id, signal }) => {
          started.push(id);
          await sleep(250);
          aborted = signal.aborted;
          finished = true;
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-long', data: { n: 1 } });
      await queue.enqueue({ id: 'run-next', data: { n: 2 } });
      await waitFor(() => started.length === 1);
      await queue.close();
      expect(finished).toBe(true);
      expect(aborted).toBe(false);
      await sleep(100);
      expect(started).toEqual(['run-long']);
      await expect(queue.enqueue({ id: 'run-late', data: { n: 3 } })).rejects.toBeInstanceOf(
        QueueClosedError,
      );
      expect(() => queue.process(async () => {}, { concurrency: 1 })).toThrow(QueueClosedError);
    });

    it('close() aborts a job that outlasts the close timeout and returns', async () => {
      const queue = open<{ n: number }>({ closeTimeoutMs: 150 });
      let signal: AbortSignal | undefined;
      const handlerDone = deferred();
      queue.process(
        async (job) => {
          signal = job.signal;
          await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
          handlerDone.resolve();
        },
        { concurrency: 1 },
      );
      await queue.enqueue({ id: 'run-stuck', data: { n: 1 } });
      await waitFor(() => signal !== undefined);
      const closing = Date.now();
      await queue.close();
      expect(Date.now() - closing).toBeGreaterThanOrEqual(140);
      expect(Date.now() - closing).toBeLessThan(2000);
      expect(signal?.aborted).toBe(true);
      expect(signal?.reason).toBeInstanceOf(QueueClosedError);
      await handlerDone.promise;
    });

    it('rejects job ids BullMQ cannot store', async () => {
      const queue = open<{ n: number }>();
      for (const id of ['slack:T1:Ev1', '', '42']) {
        await expect(queue.enqueue({ id, data: { n: 1 } })).rejects.toBeInstanceOf(ValidationError);
      }
      await expect(queue.enqueue({ id: 'slack:T1:Ev1', data: { n: 1 } })).rejects.toThrow(/":"/);
      expect(await queue.enqueue({ id: 'slack-T1-Ev1', data: { n: 1 } })).toBe(true);
    });

    it('rejects data that is not plain JSON', async () => {
      const queue = open<unknown>();
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const notJson: unknown[] = [
        undefined,
        { at: new Date(0) },
        { run: () => {} },
        { n: Number.NaN },
        { n: Number.POSITIVE_INFINITY },
        { big: 1n },
        { items: [1, undefined] },
        { map: new Map() },
        circular,
      ];
      for (const data of notJson) {
        await expect(queue.enqueue({ id: 'run-bad-data', data })).rejects.toBeInstanceOf(ValidationError);
      }
      // Nothing was added: the id is still free.
      expect(await queue.enqueue({ id: 'run-bad-data', data: { ok: true, left: undefined } })).toBe(true);
    });

    it('rejects a bad delay or concurrency, and a second handler', async () => {
      const queue = open<{ n: number }>();
      await expect(queue.enqueue({ id: 'run-x', data: { n: 1 } }, { delayMs: -1 })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(() => queue.process(async () => {}, { concurrency: 0 })).toThrow(ValidationError);
      queue.process(async () => {}, { concurrency: 1 });
      expect(() => queue.process(async () => {}, { concurrency: 1 })).toThrow(/already has a handler/);
    });
  });
}

/** Keeps what the queue logs at warn and error, with the fields, for assertions. */
function recordingLogger(lines: Array<{ level: string; message: string; fields: object }>): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void lines.push({ level: 'warn', message, fields }),
    error: (fields, message) => void lines.push({ level: 'error', message, fields }),
    child: () => logger,
  };
  return logger;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `condition` holds; fails the test after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${condition}`);
    await sleep(10);
  }
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
