import { Job, type JobsOptions, type Queue } from 'bullmq';

/**
 * `Queue.add` with a custom id silently returns the existing job when the id is taken, so
 * its result cannot say whether anything was added. Here the existence check and BullMQ's
 * own add script run in one MULTI/EXEC: no other producer can add or finish the job between
 * them, and the answer is exact. Completed and failed jobs are removed (see `bullmq-queue.ts`),
 * so an existing job hash means waiting, delayed, active or waiting for a retry.
 *
 * Uses `Job#addJob(transaction)`, the public hook BullMQ's flow producer uses for the same.
 */
export async function addUnlessPresent<T>(
  queue: Queue<T>,
  name: string,
  id: string,
  data: T,
  options: JobsOptions,
): Promise<boolean> {
  const client = await queue.getBackend().client;
  const transaction = client.multi();
  transaction.runCommand('exists', [queue.toKey(id)]);
  await new Job<T>(queue, name, data, { ...options, jobId: id }, id).addJob(transaction);
  const replies = await transaction.exec();
  const [exists, added] = replies ?? [];
  const failure = exists?.[0] ?? added?.[0];
  if (failure) throw failure;
  if (exists === undefined || added === undefined) {
    throw new Error(`Redis did not answer the transaction adding job "${id}".`);
  }
  return exists[1] === 0;
}
