import { ACTIONS } from '../../../../src/bots/slack/outbound/slack-cards';
import { waitFor } from '../../../support/engine-harness';
import { type Script, ScriptedRunner } from '../../../support/scripted-runner';
import { buttonValue, clickPayload } from '../../../support/slack-clicks';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, PEOPLE, type SlackHarness } from '../../../support/slack-harness';

const MOE = 'U0MOE00001'; // a member who starts nothing here
const MAX = 'U0MAX00001'; // an admin

/** Works until aborted, with a reply naming @qa already written (M14: stopped, nobody is woken). */
const untilStopped: Script = async function* (request) {
  yield { type: 'text', delta: 'Looking. @qa please verify.' };
  yield { type: 'tool_start', callId: 'c1', tool: 'bash', summary: 'npm test' };
  await new Promise<void>((resolve) =>
    request.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
};

describe('P15: Stop on a Slack status card', () => {
  let h: SlackHarness;
  let runner: ScriptedRunner;
  let events = 0;

  beforeEach(async () => {
    runner = new ScriptedRunner({ engineer: untilStopped, qa: () => [{ type: 'final', text: 'qa ran' }] });
    h = await openSlackHarness({ runner });
    await h.read(async (tx) => {
      const ws = h.local.workspace.id;
      await tx.members.insert(ws, { nickname: 'moe', role: 'member', slackUserId: MOE, discordUserId: null });
      await tx.members.insert(ws, { nickname: 'max', role: 'admin', slackUserId: MAX, discordUserId: null });
    });
  });
  afterEach(() => h?.close());

  /** `user` mentions engineer in a new thread; resolves with the thread and the card (Stop on it). */
  const startTurn = async (user: string) => {
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    events += 1;
    await h.deliver(
      eventFrom('message-channel', { ts, user, text: '@engineer run the tests' }, `Ev0STOP${events}`),
    );
    const card = () =>
      h.standIn.inThread(CHANNEL, ts).find((m) => JSON.stringify(m.blocks ?? []).includes(ACTIONS.stop));
    // The runner is at work (its tool row is on the card), Stop beside it.
    await waitFor(
      async () =>
        buttonValue(card(), ACTIONS.stop) !== null && JSON.stringify(card()?.blocks).includes('npm test'),
    );
    const shown = structuredClone(card());
    if (shown === undefined) throw new Error('no status card');
    const status = () => h.standIn.inThread(CHANNEL, ts).find((m) => m.ts === shown.ts);
    return { ts, shown, status };
  };

  it('P15, M14: the starter (a member) stops the turn: the card says who and loses its button, no reply, nobody woken', async () => {
    const { ts, shown, status } = await startTurn(PEOPLE.mia.userId);
    expect(buttonValue(shown, ACTIONS.stop)).toBe((await h.runs())[0]?.id);

    expect((await h.deliver(clickPayload(shown, PEOPLE.mia.userId, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => JSON.stringify(status()?.blocks ?? []).includes('Stopped by @mia'));
    expect(JSON.stringify(status()?.blocks)).toContain(':octagonal_sign:');
    expect(buttonValue(status(), ACTIONS.stop)).toBeNull();
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
    expect(await h.runs()).toMatchObject([{ status: 'failed', error: 'Stopped by @mia' }]);
    // Only the person's message and the card: no reply, no "failed" notice; qa never ran.
    expect(h.standIn.inThread(CHANNEL, ts).map((m) => m.ts)).toEqual([ts, shown.ts]);
    expect(runner.requests.map((r) => r.agent.name)).toEqual(['engineer']);
  });

  it('P15: an admin may stop a turn someone else started', async () => {
    const { shown, status } = await startTurn(PEOPLE.mia.userId);
    expect((await h.deliver(clickPayload(shown, MAX, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => JSON.stringify(status()?.blocks ?? []).includes('Stopped by @max'));
    await waitFor(async () => (await h.runs()).every((r) => r.status === 'failed'));
  });

  it('P15, P5: a member who did not start the turn is told why, privately, and the turn goes on', async () => {
    const { shown, status } = await startTurn(PEOPLE.mia.userId);
    expect((await h.deliver(clickPayload(shown, MOE, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => h.standIn.ephemerals.some((e) => e.user === MOE));
    expect(h.standIn.ephemerals.find((e) => e.user === MOE)?.text).toMatch(
      /only the person who started this turn, or an owner, admin or approver/i,
    );
    expect(h.standIn.ephemerals.some((e) => e.user === PEOPLE.mia.userId)).toBe(false);
    expect(await h.runs()).toMatchObject([{ status: 'running', error: null }]);
    expect(buttonValue(status(), ACTIONS.stop)).not.toBeNull();
    // The owner then may.
    expect((await h.deliver(clickPayload(shown, PEOPLE.dana.userId, ACTIONS.stop))).status).toBe(200);
    await waitFor(async () => JSON.stringify(status()?.blocks ?? []).includes('Stopped by @dana'));
  });
});
