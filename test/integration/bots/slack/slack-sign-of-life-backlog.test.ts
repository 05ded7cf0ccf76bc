import { encodeSlackThreadId } from '../../../../src/bots/slack/slack-thread-id';
import { DEFAULT_SIGN_OF_LIFE_ROOM } from '../../../../src/core/outbox/outbox-options';
import type { RunnerEvent } from '../../../../src/core/ports/runner';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SIGN_OF_LIFE_MS = 300;
/** How long Slack holds the other threads' posts back (429 Retry-After): longer than the turn. */
const HELD_SECONDS = 4;

/** Its whole answer in one chunk, then well past the sign of life before its end is taken. */
const late: Script = async function* () {
  yield { type: 'text', delta: 'pong' } satisfies RunnerEvent;
  await pause(SIGN_OF_LIFE_MS * 3);
  yield { type: 'final', text: 'pong' };
};

describe('P7, P9 (decision): a sign of life waits while the platform is backed up, and is withdrawn when its turn ends first', () => {
  let h: SlackHarness;
  afterEach(() => h?.close());

  beforeEach(async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: late }),
      standIn: { agentSessions: { enabled: true } },
      // P14: as in production, a stream starts only once more words follow the first.
      stream: { startAfterMs: 250 },
      timings: { signOfLifeMs: SIGN_OF_LIFE_MS },
    });
  });

  /** mia asks engineer in a new thread; resolves with its ts once the turn has succeeded. */
  const ask = async (eventId: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    await h.deliver(
      eventFrom('message-channel', { ts, user: PEOPLE.mia.userId, text: '@engineer ping' }, eventId),
    );
    await waitFor(async () => (await h.runs()).some((r) => r.status === 'succeeded'), 15_000);
    return ts;
  };
  /** The Web API calls made into one thread (an edit: of a message in it), by method. */
  const callsIn = (ts: string) =>
    h.standIn.calls
      .filter(
        (c) =>
          c.params.thread_ts === ts ||
          (c.method === 'chat.update' &&
            h.standIn.messages.some((m) => m.ts === c.params.ts && m.threadTs === ts)),
      )
      .map((c) => c.method);

  it('P7, P9: with the platform backed up, a turn past its sign of life makes one call, its reply; the held calls still go out once each', async () => {
    // Slack answers 429 to as many other threads' posts as make the platform backed up.
    h.standIn.failNext(
      'chat.postMessage',
      { status: 429, retryAfterSeconds: HELD_SECONDS },
      DEFAULT_SIGN_OF_LIFE_ROOM,
    );
    const held = Array.from({ length: DEFAULT_SIGN_OF_LIFE_ROOM }, (_, i) => {
      const thread = encodeSlackThreadId({
        channel: CHANNEL,
        threadTs: h.standIn.addPersonMessage(CHANNEL, null),
      });
      return h.front.platform.post(thread, {
        as: { kind: 'system' },
        content: { kind: 'text', text: `held ${i}` },
      });
    });
    await waitFor(
      async () => h.standIn.calls.filter((c) => c.status === 429).length === DEFAULT_SIGN_OF_LIFE_ROOM,
    );
    const asked = Date.now();

    const ts = await ask('Ev0BACKLOG1');
    await waitFor(async () => h.standIn.inThread(CHANNEL, ts).some((m) => m.text === 'pong'));
    // The reply went out while the other threads were still held, its card and session never did.
    expect(Date.now() - asked).toBeLessThan(HELD_SECONDS * 1000);
    expect(callsIn(ts)).toEqual(['chat.postMessage']);
    expect(h.standIn.agentSessions.find(CHANNEL, ts)).toBeUndefined();
    const [run] = await h.runs();
    expect(run).toMatchObject({ status: 'succeeded', statusCardRef: null });

    // P7: nothing else was lost or doubled: each held post arrives once, after Slack's wait.
    await Promise.all(held);
    await h.front.deliverer.drain();
    const texts = h.standIn.messages.map((m) => m.text).filter((t) => t.startsWith('held '));
    expect(texts.sort()).toEqual(
      Array.from({ length: DEFAULT_SIGN_OF_LIFE_ROOM }, (_, i) => `held ${i}`).sort(),
    );
    expect(callsIn(ts)).toEqual(['chat.postMessage']);
  }, 30_000);

  it('P9: the same turn with the platform not backed up shows its card and session, then ends them', async () => {
    const ts = await ask('Ev0BACKLOG2');
    await h.front.deliverer.drain();
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, ts)?.status === 'closed');
    expect(callsIn(ts).sort()).toEqual([
      'agents.sessions.setStatus',
      'agents.sessions.setStatus',
      'chat.postMessage',
      'chat.postMessage',
      'chat.update',
    ]);
    expect(h.standIn.agentSessions.find(CHANNEL, ts)?.statuses).toEqual(['processing', 'closed']);
  });
});
