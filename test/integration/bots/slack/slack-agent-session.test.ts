import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { createToolKit } from '../../../../src/core/engine/tool-kit/turn-tool-kit';
import type { RunnerRequest } from '../../../../src/core/ports/runner';
import { COMMIT_COMMAND, COMMITS_ASK_FIRST } from '../../../support/anthropic-agent';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import {
  openSlackHarness,
  PEOPLE,
  type SlackHarness,
  type SlackHarnessOptions,
} from '../../../support/slack-harness';

const MOE = 'U0MOE00001'; // a member who starts nothing here

const untilAborted = (request: RunnerRequest) =>
  new Promise<void>((resolve) => {
    if (request.signal.aborted) resolve();
    request.signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** Works until aborted, with a reply naming @qa already written (M14: stopped, nobody is woken). */
const untilStopped: Script = async function* (request) {
  yield { type: 'text', delta: 'Looking. @qa please verify.' };
  yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
  await untilAborted(request);
};

/** A commit that needs a person's approval (G4), asked the way a CLI agent's hook asks. */
const committing: Script = async function* (request) {
  yield { type: 'tool_start', callId: 'c1', tool: 'Bash', summary: 'git commit' };
  const decision = await request.tools.authorize(
    { callId: 'c1', name: 'Bash', input: { command: COMMIT_COMMAND } },
    request.signal,
  );
  yield { type: 'tool_end', callId: 'c1', ok: decision.allowed };
  if (request.signal.aborted) return;
  yield { type: 'final', text: decision.allowed ? 'Committed.' : 'Not committed.' };
};

/** N13: a question with two options, waited on. */
const asking: Script = async function* (request) {
  yield { type: 'tool_start', callId: 'q', tool: 'ask_question', summary: 'ask_question' };
  const outcome = await request.tools.call(
    {
      callId: 'q',
      name: 'ask_question',
      input: { text: 'Which database?', options: ['PostgreSQL', 'SQLite'] },
    },
    request.signal,
  );
  yield { type: 'tool_end', callId: 'q', ok: outcome.ok };
  if (request.signal.aborted) return;
  yield { type: 'final', text: `Going with it. (${outcome.output})` };
};

describe('P15: Slack’s agent session follows the turn, and its native Stop stops it', () => {
  let h: SlackHarness;
  let runner: ScriptedRunner;
  let events = 0;
  afterEach(() => h?.close());

  const open = async (engineer: Script, options: Partial<SlackHarnessOptions> = {}) => {
    runner = new ScriptedRunner({ engineer, qa: () => [{ type: 'final', text: 'qa ran' }] });
    h = await openSlackHarness({
      runner,
      tools: createToolKit([], {}),
      ...options,
      standIn: { agentSessions: { enabled: true }, ...options.standIn },
    });
    await h.read(async (tx) => {
      await tx.members.insert(h.local.workspace.id, {
        nickname: 'moe',
        role: 'member',
        slackUserId: MOE,
        discordUserId: null,
      });
      await tx.guardrails.upsert(h.local.workspace.id, COMMITS_ASK_FIRST);
    });
  };

  /** mia mentions engineer in a new thread; resolves with its ts. */
  const ask = async (text = '@engineer run the tests') => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    await h.deliver(
      eventFrom('message-channel', { ts, user: PEOPLE.mia.userId, text }, `Ev0SESSION${events}`),
    );
    return ts;
  };
  const session = (ts: string) => h.standIn.agentSessions.find(CHANNEL, ts);
  const statusCard = (ts: string) =>
    h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(ACTIONS.stop));
  const cardOf = (ts: string, marker: string) =>
    h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(marker));
  /** `user` presses the session's native Stop: Slack stops the streams and sends the signed event. */
  const pressStop = async (ts: string, user: string) => {
    events += 1;
    const stopped = h.standIn.agentSessions.pressStop(CHANNEL, ts, user);
    const response = await h.deliver(eventFrom('agent-session-stopped', stopped, `Ev0SESSSTOP${events}`));
    expect(response.status).toBe(200);
  };

  it('P15, T1: a turn that waits on an approval and then finishes: processing, suspended, processing, closed', async () => {
    await open(committing);
    const ts = await ask('@engineer commit the fix');
    await waitFor(async () => buttonValue(cardOf(ts, ':lock:'), ACTIONS.approve) !== null);
    // Waiting on a person: the session is suspended, created for the person who asked.
    await waitFor(async () => session(ts)?.status === 'suspended');
    expect(session(ts)).toMatchObject({
      initiator: PEOPLE.mia.userId,
      statuses: ['processing', 'suspended'],
    });

    const pending = cardOf(ts, ':lock:');
    if (pending === undefined) throw new Error('no approval card');
    expect((await h.deliver(clickPayload(pending, PEOPLE.dana.userId, ACTIONS.approve))).status).toBe(200);
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'));
    await waitFor(async () => session(ts)?.status === 'closed');
    expect(session(ts)?.statuses).toEqual(['processing', 'suspended', 'processing', 'closed']);
    expect(h.standIn.inThread(CHANNEL, ts).some((m) => m.text === 'Committed.')).toBe(true);
    // Every call named the thread's root, as a thread session in a channel must.
    const calls = h.standIn.calls.filter((c) => c.method === 'agents.sessions.setStatus');
    expect(calls.every((c) => c.ok && c.params.channel_id === CHANNEL && c.params.thread_ts === ts)).toBe(
      true,
    );
  });

  it('P15, M14: the starter’s native Stop stops the turn: the card says who, no reply, nobody woken, the session closed', async () => {
    await open(untilStopped);
    const ts = await ask();
    await waitFor(
      async () =>
        session(ts)?.status === 'processing' && JSON.stringify(statusCard(ts)?.blocks).includes('npm test'),
    );
    const card = statusCard(ts);

    await pressStop(ts, PEOPLE.mia.userId);
    await waitFor(async () =>
      JSON.stringify(cardOf(ts, ':octagonal_sign:')?.blocks ?? []).includes('Stopped by @mia'),
    );
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
    expect(await h.runs()).toMatchObject([{ status: 'failed', error: 'Stopped by @mia' }]);
    await waitFor(async () => session(ts)?.status === 'closed');
    expect(session(ts)?.statuses).toEqual(['processing', 'closed']);
    // Only the person's message and the card: no reply, no notice; qa never ran.
    expect(h.standIn.inThread(CHANNEL, ts).map((m) => m.ts)).toEqual([ts, card?.ts]);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer']);
    expect(h.standIn.ephemerals).toEqual([]);
  });

  it('P15, P5: a member who did not start the turn is refused privately and the turn goes on; the owner then may', async () => {
    await open(untilStopped);
    const ts = await ask();
    await waitFor(async () => session(ts)?.status === 'processing' && statusCard(ts) !== undefined);

    await pressStop(ts, MOE);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === MOE));
    expect(h.standIn.ephemerals.find((e) => e.user === MOE)).toMatchObject({
      threadTs: ts,
      text: expect.stringMatching(/only the person who started this turn, or an owner, admin or approver/i),
    });
    expect(h.standIn.ephemerals.some((e) => e.user !== MOE)).toBe(false);
    expect(await h.runs()).toMatchObject([{ status: 'running', error: null }]);
    expect(buttonValue(statusCard(ts), ACTIONS.stop)).not.toBeNull();
    // Slack leaves the status to the app: still working.
    expect(session(ts)?.statuses).toEqual(['processing']);

    await pressStop(ts, PEOPLE.dana.userId);
    await waitFor(async () =>
      JSON.stringify(cardOf(ts, ':octagonal_sign:')?.blocks ?? []).includes('Stopped by @dana'),
    );
    await waitFor(async () => session(ts)?.status === 'closed');
  });

  it('P15, P14: a stream Slack stopped at the person’s Stop is not continued in a new message; the turn stops', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let wroteMore = false;
    const streaming: Script = async function* (request) {
      yield { type: 'text', delta: 'Looking.' };
      await released;
      yield { type: 'text', delta: ' More words Slack will not take.' };
      wroteMore = true;
      await untilAborted(request);
    };
    // Appends held for a minute: what the agent writes after the first words is still pending at the Stop.
    await open(streaming, {
      standIn: { agentSessions: { enabled: true }, streaming: { enabled: true, maxAgeMs: 60_000 } },
      stream: { rolloverAfterMs: 60_000, intervalMs: 60_000 },
    });
    const ts = await ask('@engineer explain');
    await waitFor(async () => h.standIn.streamedInThread(CHANNEL, ts).some((m) => m.text === 'Looking.'));
    release();
    await waitFor(async () => wroteMore);

    await pressStop(ts, PEOPLE.mia.userId);
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
    await waitFor(async () => session(ts)?.status === 'closed');
    await h.front.deliverer.drain();
    const streamed = h.standIn.streamedInThread(CHANNEL, ts);
    expect(streamed.map((m) => [m.text, m.stream?.state])).toEqual([['Looking.', 'stopped']]);
    expect(h.standIn.inThread(CHANNEL, ts).some((m) => m.text.includes('More words'))).toBe(false);
    // The one refused append, and no new stream after it.
    expect(h.standIn.calls.filter((c) => c.method === 'chat.appendStream').map((c) => c.error)).toEqual([
      'message_not_in_streaming_state',
    ]);
    expect(h.standIn.okCalls('chat.startStream')).toHaveLength(1);
    expect(JSON.stringify(cardOf(ts, ':octagonal_sign:')?.blocks)).toContain('Stopped by @mia');
  });

  it('P15, P14: a refused native Stop leaves the turn working; Slack closed its stream, so the reply goes on in a new message, whole and once', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const streaming: Script = async function* () {
      yield { type: 'text', delta: 'Looking.' };
      await released;
      yield { type: 'text', delta: ' The rest of the answer.' };
      yield { type: 'final', text: 'Looking. The rest of the answer.' };
    };
    await open(streaming, {
      standIn: { agentSessions: { enabled: true }, streaming: { enabled: true, maxAgeMs: 60_000 } },
      stream: { rolloverAfterMs: 60_000, intervalMs: 60_000 },
    });
    const ts = await ask('@engineer explain');
    await waitFor(async () => h.standIn.streamedInThread(CHANNEL, ts).some((m) => m.text === 'Looking.'));

    await pressStop(ts, MOE);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === MOE));
    release();
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'succeeded'));
    await waitFor(async () => session(ts)?.status === 'closed');
    await h.front.deliverer.drain();
    const streamed = h.standIn.streamedInThread(CHANNEL, ts);
    expect(streamed).toHaveLength(2);
    expect(streamed.map((m) => m.text).join('')).toBe('Looking. The rest of the answer.');
    expect(streamed.every((m) => m.stream?.state === 'stopped' && m.username === 'engineer')).toBe(true);
    expect(session(ts)?.statuses).toEqual(['processing', 'closed']);
  });

  it('P15, G4: a turn stopped while its approval waits: the approval card loses its buttons and says who stopped the turn', async () => {
    await open(committing);
    const ts = await ask('@engineer commit the fix');
    await waitFor(async () => buttonValue(cardOf(ts, ':lock:'), ACTIONS.approve) !== null);
    const card = statusCard(ts);
    if (card === undefined) throw new Error('no status card');

    expect((await h.deliver(clickPayload(card, PEOPLE.mia.userId, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
    await waitFor(async () => buttonValue(cardOf(ts, ':lock:'), ACTIONS.approve) === null);
    const approval = JSON.stringify(cardOf(ts, ':lock:')?.blocks);
    expect(approval).toContain('Stopped by @mia');
    expect(buttonValue(cardOf(ts, ':lock:'), ACTIONS.deny)).toBeNull();
    const stored = await h.read((tx) => tx.approvals.listPendingDue(new Date(Date.now() + 86_400_000)));
    expect(stored).toEqual([]);
    await waitFor(async () => session(ts)?.status === 'closed');
    // The stopped wait hands the turn back to wind up (a slot again), then it ends.
    expect(session(ts)?.statuses).toEqual(['processing', 'suspended', 'processing', 'closed']);
  });

  it('P15, N13: a turn stopped while its question waits: the question card loses its options and says who stopped the turn', async () => {
    await open(asking);
    const ts = await ask('@engineer make the report');
    await waitFor(async () => cardOf(ts, ':question:') !== undefined && session(ts)?.status === 'suspended');
    const card = statusCard(ts);
    if (card === undefined) throw new Error('no status card');

    expect((await h.deliver(clickPayload(card, PEOPLE.dana.userId, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => JSON.stringify(cardOf(ts, ':question:')?.blocks).includes('Stopped by @dana'));
    expect(JSON.stringify(cardOf(ts, ':question:')?.blocks)).not.toContain('"type":"actions"');
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
  });
});
