import { webApi } from '@slack/bolt';
import { SlackSender } from '../../../../src/bots/slack/outbound/slack-sender';
import { OutboxDeliverer } from '../../../../src/core/outbox/outbox-deliverer';
import { silentLogger } from '../../../../src/core/ports/logger';
import type { SqlStoreTx } from '../../../../src/storage/store/sql-store';
import { waitFor } from '../../../support/engine-harness';
import { CHANNEL } from '../../../support/slack-delivery';
import { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';
import { openTestDatabase, type TestDatabase } from '../../../support/test-database';

/**
 * P7, T2, A12: several workers share one outbox. A worker that starts (`resume`) fails only the
 * calls a dead process left `sending`, never one another live worker is sending right now.
 */
describe('P7, T2, A12: two deliverers on one database, one sending, the other resuming', () => {
  let db: TestDatabase;
  let standIn: SlackWebApiStandIn;
  let workspaceId: string;
  let url: string;
  const drains: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    db = await openTestDatabase('postgres');
    standIn = new SlackWebApiStandIn({ channels: [CHANNEL] });
    url = await standIn.listen();
    workspaceId = (
      await db.database.store.transaction((tx) => tx.workspaces.insert({ slug: 'two-workers', name: 'Two' }))
    ).id;
  });
  afterEach(async () => {
    standIn.up();
    for (const drain of drains.splice(0)) await drain();
    await standIn.close();
    await db.dispose();
  });

  const deliverer = (abandonAfterMs?: number) => {
    const client = new webApi.WebClient(standIn.token, {
      slackApiUrl: url,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: 30_000,
      logLevel: webApi.LogLevel.ERROR,
    });
    const d = new OutboxDeliverer({
      store: db.database.store,
      platform: 'slack',
      sender: new SlackSender(client),
      logger: silentLogger,
      backoff: { baseMs: 20, maxMs: 50 },
      ...(abandonAfterMs === undefined ? {} : { abandonAfterMs }),
    });
    drains.push(() => d.drain());
    return d;
  };
  const rows = () =>
    db.database.store.transaction((tx) =>
      (tx as SqlStoreTx).query<{ id: string; status: string }>('SELECT id, status FROM outbox ORDER BY seq'),
    );

  it('P7, T2, A12: the call a live worker holds in flight is not failed by the other’s resume, and is posted once', async () => {
    const sending = deliverer();
    standIn.stall();
    const delivered = sending.deliver({ workspaceId, lane: `${CHANNEL}:1` }, 'chat.postMessage', {
      channel: CHANNEL,
      text: 'held in flight',
    });
    // Slack has taken the call and not answered: the row is `sending`, its sender alive.
    await waitFor(async () => standIn.stalledCalls('chat.postMessage') === 1);
    expect((await rows()).map((row) => row.status)).toEqual(['sending']);

    const resumed = await deliverer().resume();
    expect(resumed).toMatchObject({ abandoned: 0, resent: 0 });
    expect((await rows()).map((row) => row.status)).toEqual(['sending']);

    // Slack drops the hung connection: the live sender tries again and the call lands once.
    standIn.up();
    expect(await delivered).toEqual(expect.any(String));
    expect(standIn.messages.filter((m) => m.text === 'held in flight')).toHaveLength(1);
    expect((await rows()).map((row) => row.status)).toEqual(['sent']);
  }, 30_000);

  it('P7, T2, A12: a call its dead sender left `sending` is failed once its mark is old enough, never sent', async () => {
    // Two calls a process marked `sending` and died with: one long ago, one just now.
    const store = db.database.store;
    const [old, young] = await store.transaction(async (tx) => [
      (
        await tx.outbox.addSending({
          workspaceId,
          platform: 'slack',
          lane: 'L:1',
          kind: 'chat.postMessage',
          payload: { channel: CHANNEL, text: 'old' },
        })
      ).item,
      (
        await tx.outbox.addSending({
          workspaceId,
          platform: 'slack',
          lane: 'L:2',
          kind: 'chat.postMessage',
          payload: { channel: CHANNEL, text: 'young' },
        })
      ).item,
    ]);
    await store.transaction((tx) =>
      (tx as SqlStoreTx).query(`UPDATE outbox SET sending_since = now() - interval '1 hour' WHERE id = $1`, [
        old?.id,
      ]),
    );
    const resumed = await deliverer(1_000).resume();
    expect(resumed).toMatchObject({ abandoned: 1, resent: 0 });
    expect(await rows()).toEqual([
      { id: old?.id, status: 'failed' },
      { id: young?.id, status: 'sending' },
    ]);
    // Looked at again once the young mark is old enough: its sender never came back.
    await waitFor(async () => (await rows()).every((row) => row.status === 'failed'), 10_000);
    expect(standIn.messages).toEqual([]);
  }, 30_000);
});
