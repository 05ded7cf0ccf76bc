import { type RunningServer, startServer } from '../../../src/app/server';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { waitFor } from '../../support/engine-harness';
import { openServeFixture, type ServeFixture } from '../../support/serve-fixture';
import { BOT_USER, CHANNEL, deliver, eventFrom } from '../../support/slack-delivery';
import type { AnthropicStandIn } from '../../support/stand-ins/anthropic-stand-in';
import type { SlackWebApiStandIn } from '../../support/stand-ins/slack-web-api-stand-in';
import type { TestDatabase } from '../../support/test-database';

jest.setTimeout(60_000);

const API_KEY = 'sk-ant-stop-slack-down';

/**
 * P7, T2: `summon serve` is stopped (what SIGTERM does: `server.close()`) while Slack's Web API
 * is down and a turn's reply waits to be retried. The stop does not wait for Slack: the reply
 * stays stored, and the next start posts it, once. Before, the stop waited for the reply to be
 * delivered, for as long as the outbox retries (hours), until the process was killed.
 */
describe('P7, T2: summon serve stops during a Slack outage', () => {
  let f: ServeFixture;
  let slack: SlackWebApiStandIn;
  let model: AnthropicStandIn;
  let db: TestDatabase;
  let env: Record<string, string>;
  let server: RunningServer | null = null;

  beforeEach(async () => {
    f = await openServeFixture(API_KEY, 'the answer');
    ({ slack, model, db, env } = f);
  });

  afterEach(async () => {
    slack.up();
    await server?.close();
    server = null;
    await f.close();
  });

  const outbox = () =>
    db.database.store.transaction((tx) =>
      (tx as SqlStoreTx).query<{ status: string }>('SELECT status FROM outbox ORDER BY seq'),
    );

  it('P7, T2: the stop ends while Slack is down; the reply is posted once after the next start', async () => {
    const first = await startServer(env, process.cwd());
    server = first;
    slack.down(503);
    const ts = slack.addPersonMessage(CHANNEL, null);
    const mention = eventFrom('app-mention', { ts, text: `<@${BOT_USER}> @engineer ping` });
    expect((await deliver(`http://127.0.0.1:${first.port}/slack/events`, mention)).status).toBe(200);
    // The model answered; the reply's post is refused and waits to be tried again.
    await waitFor(async () => model.requests.length === 1 && slack.calls.length >= 2);

    await first.close();
    server = null;
    expect((await outbox()).map((r) => r.status)).toContain('pending');
    expect(slack.okCalls('chat.postMessage')).toHaveLength(0);

    slack.up();
    // A12: a run left `running` by the stop is soon taken for dead (and a fresh turn would answer again).
    server = await startServer({ ...env, SUMMON_DEAD_AFTER_MS: '1000' }, process.cwd());
    const answers = () =>
      slack.inThread(CHANNEL, ts).filter((m) => m.botId !== '' && m.text === 'the answer');
    await waitFor(async () => answers().length === 1);
    await waitFor(async () => (await outbox()).every((r) => r.status !== 'pending'));
    // Long enough for recovery (every 0.5 s here) to take a run left `running` for dead and run it again.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(answers()).toHaveLength(1);
    const runs = await db.database.store.transaction((tx) =>
      tx.runs.listByStatus(['queued', 'running', 'succeeded', 'failed']),
    );
    expect(runs.map((r) => r.status)).toEqual(['succeeded']);
    expect(
      slack.messages.filter((m) => m.botId !== '' && /failed|interrupted|stopped/i.test(m.text)),
    ).toEqual([]);
  });
});
