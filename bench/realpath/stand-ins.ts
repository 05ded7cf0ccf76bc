import { AnthropicStandIn } from '../../test/support/stand-ins/anthropic-stand-in';
import { type RecordedCall, SlackWebApiStandIn } from '../../test/support/stand-ins/slack-web-api-stand-in';
import type { Cleanup } from '../core/cleanup';

export const TEAM = 'T0BENCH001';
export const CHANNEL = 'C0BENCH001';
export const PERSON = 'U0BENCHDANA';
export const BOT_USER = 'U0BENCHBOT';
export const SIGNING_SECRET = 'bench-signing-secret-0123456789abcdef';
const API_KEY = 'sk-ant-bench-0123456789';

/** The marker a mention carries and the model's answer repeats (`pong <n>`). */
export const markerOf = (n: number) => `mention-${n}`;
const MARKER = /mention-(\d+)/g;
const answerFor = (n: string) => `pong ${n}`;

/**
 * The two services both bots talk to over HTTP, shared by every set-up of a run: the repo's Slack
 * Web API stand-in (streaming and agent sessions on, as a Slack app with agent features has
 * them) and its Anthropic Messages API stand-in, which answers each request with
 * `pong <n>` (n from the mention's marker, the last in the request) after `modelMs` (0: at once).
 *
 * A reply is seen at the Slack stand-in when the write that ends it arrives: a `chat.stopStream`
 * in the mention's thread (the reply streamed, P14), or a `chat.postMessage` / `chat.update`
 * carrying the answer (a reply posted, the stream refused). The stand-in records each call just
 * before it answers it; the watcher is a wrapper on that record (the stand-in itself is shared
 * with the tests and stays as it is).
 */
export interface BenchStandIns {
  slack: SlackWebApiStandIn;
  slackApiUrl: string;
  anthropic: AnthropicStandIn;
  anthropicKey: string;
  /** Resolves (process.hrtime.bigint()) when the reply to the mention in `threadTs` arrives. */
  replyTo(threadTs: string): Promise<bigint>;
  /** Slack calls by method since the last `takeCalls` (which lets them go). */
  takeCalls(): Map<string, number>;
  /** Model requests since the last `takeModelRequests` (which lets them go). */
  takeModelRequests(): number;
  /** Which method ended each reply since the last `takeEndings`, counted by method. */
  takeEndings(): Map<string, number>;
  /** The Slack calls made in a thread since the last `takeCalls` (its messages' edits included), in order. */
  callsInThread(threadTs: string): RecordedCall[];
}

export async function openStandIns(modelMs: number, cleanup: Cleanup): Promise<BenchStandIns> {
  const slack = new SlackWebApiStandIn({
    botUserId: BOT_USER,
    teamId: TEAM,
    streaming: { enabled: true },
    agentSessions: { enabled: true },
  });
  const slackApiUrl = await slack.listen();
  cleanup.defer('close the Slack stand-in', () => slack.close());
  const anthropic = await AnthropicStandIn.start({
    apiKey: API_KEY,
    keepRequests: false,
    reply: (body) => {
      const found = [...JSON.stringify(body.messages).matchAll(MARKER)].at(-1)?.[1] ?? 'unknown';
      const after = modelMs > 0 ? new Promise<void>((r) => setTimeout(r, modelMs)) : undefined;
      return {
        kind: 'stream',
        blocks: [{ type: 'text', chunks: [answerFor(found)] }],
        ...(after === undefined ? {} : { after }),
      };
    },
  });
  cleanup.defer('close the Anthropic stand-in', () => anthropic.close());

  const waiting = new Map<string, (at: bigint) => void>();
  const seen = new Map<string, bigint>();
  let endings = new Map<string, number>();
  const arrived = (threadTs: string | null, method: string) => {
    if (threadTs === null || seen.has(threadTs)) return;
    const at = process.hrtime.bigint();
    seen.set(threadTs, at);
    endings.set(method, (endings.get(method) ?? 0) + 1);
    waiting.get(threadTs)?.(at);
    waiting.delete(threadTs);
  };
  const threadOf = (p: Record<string, unknown>): string | null => {
    if (typeof p.thread_ts === 'string') return p.thread_ts;
    const message = slack.messageAt(p.channel, p.ts);
    return message?.threadTs ?? null;
  };
  const record = slack.calls.push.bind(slack.calls);
  slack.calls.push = (...calls: RecordedCall[]) => {
    for (const call of calls) {
      if (!call.ok) continue;
      if (call.method === 'chat.stopStream') arrived(threadOf(call.params), call.method);
      else if (
        (call.method === 'chat.postMessage' || call.method === 'chat.update') &&
        JSON.stringify(call.params).includes('pong ')
      )
        arrived(threadOf(call.params), call.method);
    }
    return record(...calls);
  };
  let modelCounted = 0;
  return {
    slack,
    slackApiUrl,
    anthropic,
    anthropicKey: API_KEY,
    replyTo: (threadTs) => {
      const at = seen.get(threadTs);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve) => waiting.set(threadTs, resolve));
    },
    takeCalls: () => {
      const byMethod = new Map<string, number>();
      // Counted, then let go: a run's calls and requests kept to its end made this process's
      // heap grow, and its full collections (on every CPU) stalled the set-up being measured.
      for (const call of slack.calls.splice(0))
        byMethod.set(call.method, (byMethod.get(call.method) ?? 0) + 1);
      return byMethod;
    },
    takeEndings: () => {
      const taken = endings;
      endings = new Map();
      return taken;
    },
    callsInThread: (threadTs) => slack.calls.filter((c) => threadOf(c.params) === threadTs),
    takeModelRequests: () => {
      const n = anthropic.received - modelCounted;
      modelCounted = anthropic.received;
      return n;
    },
  };
}
