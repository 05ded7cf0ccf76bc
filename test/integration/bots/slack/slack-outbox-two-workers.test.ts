import type { SqlStoreTx } from '../../../../src/storage/store/sql-store';
import { waitFor } from '../../../support/engine-harness';
import { type OutboxWorkers, openOutboxWorkers } from '../../../support/outbox-workers';
import { CHANNEL } from '../../../support/slack-delivery';
import type { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';
import type { TestDatabase } from '../../../support/test-database';

/**
 * P7, T2, A12: several workers share one outbox. A worker that starts (`resume`) fails only the
 * calls a dead process left `sending`, never one another live worker is sending right now.
 */
describe('P7, T2, A12: two deliverers on one database, one sending, the other resuming', () => {
  let w: OutboxWorkers;
  let db: TestDatabase;
  let standIn: SlackWebApiStandIn;
  let workspaceId: string;

  beforeEach(async () => {
    w = await openOutboxWorkers('two-workers');
    ({ db, standIn, workspaceId } = w);
  });
  afterEach(() => w.close());

  const deliverer = (abandonAfterMs?: number) => w.deliverer(abandonAfterMs);
  const rows = () => w.rows<{ id: string; status: string }>('id, status');

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
