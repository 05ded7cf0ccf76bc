import { type Measurement, nsToMs, summarize } from '../core/stats';
import type { MentionSender } from './mentions';

/** A stretch of mentions: their replies (from due to the reply seen) and their acks. */
export interface MentionLoad {
  replies: Measurement;
  acks: Measurement;
  /** Each mention's reply latency, in the order they were due (`reply-windows.ts` reads them). */
  replyMsInOrder: number[];
  /** When the first mention was due (the wall clock): a window lines up with server logs from it. */
  startedAt: string;
}

// Long: on a loaded machine a bot that falls far behind is still measured, not failed.
const REPLY_TIMEOUT_MS = 600_000;
// A warm-up's few mentions at a low rate: a bot that does not answer them is broken.
export const WARMUP_TIMEOUT_MS = 60_000;

/**
 * `count` mentions at `ratePerSecond`, open loop (mention i is due at i ÷ rate whether or not the
 * earlier ones were answered): each reply's latency runs from when it was due to when the Slack
 * stand-in received the write that ends it, each ack's to the end of the HTTP response. A bot
 * that falls behind shows its queue, and a late timer on a loaded machine counts against it.
 * Replies per second: count ÷ (the last reply − the first mention due).
 */
export async function mentionLoad(
  sender: MentionSender,
  ratePerSecond: number,
  count: number,
  timeoutMs = REPLY_TIMEOUT_MS,
): Promise<MentionLoad> {
  const first = process.hrtime.bigint();
  const startedAt = new Date().toISOString();
  const gapNs = BigInt(Math.round(1e9 / ratePerSecond));
  const trips: Promise<{ replyMs: number; ackMs: number; end: bigint }>[] = [];
  for (let i = 0; i < count; i++) {
    const due = first + gapNs * BigInt(i);
    const waitMs = nsToMs(due - process.hrtime.bigint());
    if (waitMs > 1) await new Promise((resolve) => setTimeout(resolve, waitMs));
    const trip = withTimeout(sender.send(due), timeoutMs).then((t) => ({
      replyMs: nsToMs(t.replyAt - due),
      ackMs: t.ackMs,
      end: t.replyAt,
    }));
    // Handled now, reported below: a delivery that fails while later ones are still being sent
    // would otherwise end this process as an unhandled rejection, before the bench's clean-up
    // stops the bot it started (a `summon serve` left running on a dropped stand-in).
    trip.catch(() => {});
    trips.push(trip);
  }
  const settled = await Promise.allSettled(trips);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  const done = settled.map(
    (s) => (s as PromiseFulfilledResult<{ replyMs: number; ackMs: number; end: bigint }>).value,
  );
  let last = first;
  for (const d of done) if (d.end > last) last = d.end;
  const elapsedMs = nsToMs(last - first);
  return {
    startedAt,
    replyMsInOrder: done.map((d) => Math.round(d.replyMs * 10) / 10),
    replies: summarize(
      done.map((d) => d.replyMs),
      elapsedMs,
    ),
    acks: summarize(
      done.map((d) => d.ackMs),
      elapsedMs,
    ),
  };
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
