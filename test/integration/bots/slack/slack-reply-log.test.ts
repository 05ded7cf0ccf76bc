import { createLogger } from '../../../../src/app/logger';
import { waitFor } from '../../../support/engine-harness';
import { ScriptedRunner } from '../../../support/scripted-runner';
import { CHANNEL, eventFrom } from '../../../support/slack-delivery';
import { openSlackHarness, type SlackHarness } from '../../../support/slack-harness';

/** O6: what one reply writes at `info`, through the real logger, Bolt and the engine. */
describe('O6: a reply’s log lines at info', () => {
  let h: SlackHarness;
  let lines: Record<string, unknown>[];

  beforeEach(async () => {
    lines = [];
    h = await openSlackHarness({
      runner: new ScriptedRunner({}, () => [{ type: 'final', text: 'on it' }]),
      logger: createLogger({
        level: 'info',
        destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
      }),
    });
  });
  afterEach(() => h.close());

  it('O6: a mention that starts a turn writes its routing line and its turn’s end, nothing more', async () => {
    // The front end's start-up back-fill logs at info too; the reply's lines are those after it.
    await waitFor(async () => lines.some((line) => line.msg === 'Slack back-fill done'));
    const before = lines.length;
    const ts = h.standIn.addPersonMessage(CHANNEL, null);
    expect(
      (await h.deliver(eventFrom('message-channel', { ts, text: '@engineer fix the login bug' }))).status,
    ).toBe(200);
    await waitFor(async () => h.standIn.inThread(CHANNEL, ts).some((m) => m.text === 'on it'));
    await waitFor(async () => lines.slice(before).some((line) => line.msg === 'turn finished'));
    // Warnings (here the stand-in's refused session status) are written whatever the level.
    const written = lines.slice(before).filter((line) => line.level === 30);
    expect(written.map((line) => line.msg)).toEqual(['message accepted', 'turn finished']);
    const [accepted, finished] = written;
    expect(accepted).toMatchObject({
      component: 'engine',
      eventId: expect.any(String),
      runIds: [finished?.runId],
    });
    expect(finished).toMatchObject({
      level: 30,
      component: 'turn',
      ok: true,
      agent: 'engineer',
      platform: 'slack',
      conversationId: accepted?.conversationId,
      runId: expect.any(String),
    });
  });
});
