import { waitFor } from '../../support/engine-harness';
import { openServeFixture, type ServeFixture } from '../../support/serve-fixture';
import { ServeProcess } from '../../support/serve-process';
import { BOT_USER, CHANNEL, deliver, eventFrom } from '../../support/slack-delivery';
import type { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import type { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import type { TestDatabase } from '../../support/test-database';

jest.setTimeout(180_000);

const API_KEY = 'sk-ant-killed-reply-stored';

/**
 * T2, P7: `summon serve` is killed (SIGKILL) after a turn stored its reply (the run names it, its
 * call stored in the outbox) and before the run's end: Slack asked it to wait (a 429). The next
 * process sends the stored call, and recovery finishes the run with that reply: the model is not
 * asked again, and the thread is answered once. Before, recovery ran the turn again from its
 * prompt, and the thread got two answers.
 */
describe('T2, P7: a worker killed between its reply stored and its run finished', () => {
  let f: ServeFixture;
  let slack: SlackWebApiStandIn;
  let model: AnthropicStandIn;
  let db: TestDatabase;
  const processes: ServeProcess[] = [];

  beforeEach(async () => {
    f = await openServeFixture(API_KEY, 'the answer');
    ({ slack, model, db } = f);
  });

  afterEach(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    processes.length = 0;
    await f.close();
  });

  const serve = async () => {
    const server = ServeProcess.start(['serve'], {
      ...f.env,
      // A12: a run whose worker went silent is taken for dead after 2 s.
      SUMMON_DEAD_AFTER_MS: '2000',
      // P9: no status card, however slow a first turn is here: the one post is the reply's.
      SUMMON_SIGN_OF_LIFE_MS: '10000',
      LOG_LEVEL: 'info',
    });
    processes.push(server);
    const ready = JSON.parse(await server.waitForLine('summon is ready', 120_000)) as { port: number };
    return { server, url: `http://127.0.0.1:${ready.port}/slack/events` };
  };
  const runs = () =>
    db.database.store.transaction((tx) => tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']));

  it('T2, P7: the stored reply is posted once and ends the run; the model is asked once', async () => {
    const first = await serve();
    const ts = slack.addPersonMessage(CHANNEL, null);
    const answers = () =>
      slack.inThread(CHANNEL, ts).filter((m) => m.botId !== '' && m.text === 'the answer');
    // The reply's post is asked to wait half a minute: its call stays stored, `pending`.
    slack.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 30 });
    const mention = eventFrom('app-mention', { ts, text: `<@${BOT_USER}> @engineer ping` });
    expect((await deliver(first.url, mention)).status).toBe(200);
    await waitFor(async () => slack.calls.some((c) => c.method === 'chat.postMessage' && c.status === 429));
    expect((await runs()).map((r) => [r.status, r.replyMessageId !== null])).toEqual([['running', true]]);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);

    await first.server.kill('SIGKILL');
    const second = await serve();
    const seen = () =>
      `; answers ${answers().length}, model requests ${model.requests.length}; the restarted process's log:\n${second.server.lines.slice(-30).join('\n')}`;
    await waitFor(async () => (await runs()).every((r) => r.status === 'succeeded'), 60_000, seen);
    await waitFor(async () => answers().length >= 1, 60_000, seen);
    // Recovery has swept again since (every second): nothing runs the turn a second time.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(answers()).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect((await runs()).map((r) => r.status)).toEqual(['succeeded']);
  });
});
