import type { RunnerEvent } from '../../../../src/core/ports/runner';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const SIGN_OF_LIFE_MS = 300;

/** Answers at once, in one chunk, as an instant model does. */
const instant: Script = async function* () {
  yield { type: 'text', delta: 'pong' } satisfies RunnerEvent;
  yield { type: 'final', text: 'pong' };
};

/** Thinks for well past the sign of life, then answers in two chunks. */
const slow: Script = async function* () {
  yield { type: 'text', delta: 'Looking' } satisfies RunnerEvent;
  await pause(SIGN_OF_LIFE_MS * 3);
  yield { type: 'text', delta: ' done.' };
  yield { type: 'final', text: 'Looking done.' };
};

/** Writes as a model does, a few words at a time, over most of a second. */
const steady: Script = async function* () {
  yield { type: 'text', delta: 'Looking' } satisfies RunnerEvent;
  await pause(100);
  yield { type: 'text', delta: ' at it' };
  await pause(600);
  yield { type: 'text', delta: ' done.' };
  yield { type: 'final', text: 'Looking at it done.' };
};

/** Its whole answer in one chunk, then a long moment before its end is taken. */
const wholeThenLate: Script = async function* () {
  yield { type: 'text', delta: 'pong' } satisfies RunnerEvent;
  await pause(700);
  yield { type: 'final', text: 'pong' };
};

/** Fails at once. */
const failing: Script = async function* () {
  yield { type: 'error', message: 'the model refused' } satisfies RunnerEvent;
};

describe('P9, P14 (decision): a turn shows its card, session and stream once it has run a moment', () => {
  let h: SlackHarness;
  let events = 0;
  afterEach(() => h?.close());

  const open = async (script: Script) => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: script }),
      standIn: { streaming: { enabled: true, maxAgeMs: 60_000 }, agentSessions: { enabled: true } },
      stream: { rolloverAfterMs: 60_000 },
      timings: { signOfLifeMs: SIGN_OF_LIFE_MS },
    });
  };
  /** mia asks engineer in a new thread; resolves once the turn has ended and its calls went out. */
  const ask = async () => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    await h.deliver(
      eventFrom(
        'message-channel',
        { ts, user: PEOPLE.mia.userId, text: '@engineer ping' },
        `Ev0SIGN${events}`,
      ),
    );
    await waitFor(
      async () => (await h.runs()).some((r) => r.status === 'succeeded' || r.status === 'failed'),
      15_000,
    );
    await h.front.deliverer.drain();
    return ts;
  };
  const methods = () => h.standIn.calls.filter((c) => c.method !== 'auth.test').map((c) => c.method);

  it('P9, P14: an instant turn posts just its reply: one call, no card, no stream, no session status', async () => {
    await open(instant);
    const ts = await ask();
    expect(methods()).toEqual(['chat.postMessage']);
    const thread = h.standIn.inThread(CHANNEL, ts).filter((m) => m.ts !== ts);
    expect(thread.map((m) => m.text)).toEqual(['pong']);
    expect(thread[0]?.username).toBe('engineer');
    expect(h.standIn.agentSessions.find(CHANNEL, ts)).toBeUndefined();
    // P7, T2: the run names its reply, and the reply its ts in Slack.
    const [run] = await h.runs();
    expect(run).toMatchObject({ status: 'succeeded', statusCardRef: null });
    const reply = await h.read((tx) => tx.messages.findById(run?.replyMessageId ?? ''));
    expect(reply?.platformMessageRef).toBe(thread[0]?.ts);
  });

  it('P9, P14, P15: a slower turn shows its card, its session and its stream within the moment, then ends them', async () => {
    await open(slow);
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    const sent = Date.now();
    await h.deliver(
      eventFrom(
        'message-channel',
        { ts, user: PEOPLE.mia.userId, text: '@engineer ping' },
        `Ev0SIGN${events}`,
      ),
    );
    await waitFor(async () => methods().includes('chat.startStream'), 5_000);
    const shown = h.standIn.calls.filter((c) =>
      ['chat.postMessage', 'agents.sessions.setStatus', 'chat.startStream'].includes(c.method),
    );
    // Shown while the model still thinks (it answers after 900 ms), none before the moment.
    expect(shown.map((c) => c.method).sort()).toEqual([
      'agents.sessions.setStatus',
      'chat.postMessage',
      'chat.startStream',
    ]);
    for (const call of shown) expect(call.at - sent).toBeGreaterThanOrEqual(SIGN_OF_LIFE_MS - 20);
    await waitFor(async () => (await h.runs()).some((r) => r.status === 'succeeded'), 15_000);
    await h.front.deliverer.drain();
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, ts)?.status === 'closed');
    expect(h.standIn.agentSessions.find(CHANNEL, ts)?.statuses).toEqual(['processing', 'closed']);
    expect(methods()).toContain('chat.stopStream');
    expect(methods()).toContain('chat.update');
    expect(JSON.stringify(h.standIn.inThread(CHANNEL, ts))).toContain('Looking done.');
  });

  it('P14, P7 (decision): a reply complete within a moment of its first words, after the sign of life, is posted whole: no stream started and stopped around one chunk', async () => {
    // The card and session show at once (a turn that waited long to be claimed, under load);
    // the model then answers in one chunk, and the stream holds its start for 250 ms.
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: instant }),
      standIn: { streaming: { enabled: true, maxAgeMs: 60_000 }, agentSessions: { enabled: true } },
      stream: { rolloverAfterMs: 60_000, startAfterMs: 250 },
      timings: { signOfLifeMs: 0 },
    });
    const ts = await ask();
    await waitFor(async () => h.standIn.agentSessions.find(CHANNEL, ts)?.status === 'closed');
    expect(methods()).not.toContain('chat.startStream');
    expect(h.standIn.streamedInThread(CHANNEL, ts)).toEqual([]);
    const replies = h.standIn.inThread(CHANNEL, ts).filter((m) => m.text === 'pong');
    expect(replies).toMatchObject([{ username: 'engineer' }]);
    // P9: the card that was shown says done.
    expect(methods().filter((m) => m === 'chat.update')).toHaveLength(1);
    // P7, T2: the reply posted whole is stored with its call: the run names it, it names its ts.
    const [run] = await h.runs();
    const reply = await h.read((tx) => tx.messages.findById(run?.replyMessageId ?? ''));
    expect(reply?.platformMessageRef).toBe(replies[0]?.ts);
  });

  it('P14 (decision): one chunk alone does not start the stream, however late the answer’s end is taken: posted whole', async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: wholeThenLate }),
      standIn: { streaming: { enabled: true, maxAgeMs: 60_000 }, agentSessions: { enabled: true } },
      stream: { rolloverAfterMs: 60_000, startAfterMs: 250 },
      timings: { signOfLifeMs: 0 },
    });
    const ts = await ask();
    expect(methods()).not.toContain('chat.startStream');
    expect(h.standIn.inThread(CHANNEL, ts).filter((m) => m.text === 'pong')).toHaveLength(1);
  });

  it('P14 (decision): words that keep coming past the held moment stream as before', async () => {
    h = await openSlackHarness({
      runner: new ScriptedRunner({ engineer: steady }),
      standIn: { streaming: { enabled: true, maxAgeMs: 60_000 }, agentSessions: { enabled: true } },
      stream: { rolloverAfterMs: 60_000, startAfterMs: 250 },
      timings: { signOfLifeMs: 0 },
    });
    const ts = await ask();
    const [streamed, ...more] = h.standIn.streamedInThread(CHANNEL, ts);
    expect(more).toEqual([]);
    expect(streamed).toMatchObject({ text: 'Looking at it done.', stream: { state: 'stopped' } });
    expect(
      h.standIn.okCalls('chat.postMessage').filter((c) => String(c.params.text).includes('Looking')),
    ).toEqual([]);
  });

  it('P9: a turn that fails at once shows its card once, in its failed state, beside the notice', async () => {
    await open(failing);
    const ts = await ask();
    await waitFor(async () => JSON.stringify(h.standIn.inThread(CHANNEL, ts)).includes('the model refused'));
    await h.front.deliverer.drain();
    const cards = h.standIn.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.params.blocks !== undefined,
    );
    expect(cards).toHaveLength(1);
    expect(methods()).not.toContain('chat.update');
    expect(methods()).not.toContain('chat.startStream');
    expect(JSON.stringify(cards[0]?.params)).toContain('Failed');
  });
});
