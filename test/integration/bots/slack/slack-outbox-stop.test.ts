import type { AppError } from '../../../../src/core/errors';
import { waitFor } from '../../../support/engine-harness';
import { type OutboxWorkers, openOutboxWorkers } from '../../../support/outbox-workers';
import { CHANNEL } from '../../../support/slack-delivery';

interface Row {
  status: string;
  attempts: number;
  platform_ref: string | null;
}

const post = (text: string) => ({ kind: 'chat.postMessage', payload: { channel: CHANNEL, text } });

/** A delivery's outcome, wrapped so that awaiting it does not throw. */
const settle = (delivery: Promise<unknown>) =>
  delivery.then(
    (value) => ({ value }),
    (error: unknown) => ({ code: (error as AppError).code }),
  );

/**
 * P7, T2: a worker stops (SIGTERM) while Slack's Web API is down. The outbox retries a call for
 * hours, but its stop does not wait for that: the calls not sent stay stored `pending` and the
 * next worker to start sends them, each once, in order. Before, the stop waited for every call
 * to be delivered, so a worker asked to stop during an outage ran until it was killed.
 */
describe('P7, T2: a stop during an outage of the Slack Web API', () => {
  let w: OutboxWorkers;
  const lane = `${CHANNEL}:1`;

  beforeEach(async () => {
    w = await openOutboxWorkers('outbox-stop');
  });
  afterEach(() => w.close());

  const rows = () => w.rows<Row>('status, attempts, platform_ref');
  const texts = () => w.standIn.messages.map((m) => m.text);

  it('P7, T2: the stop ends without Slack; the calls stay pending, and the next start posts each once, in order', async () => {
    const { standIn, workspaceId } = w;
    standIn.down(503);
    const first = w.deliverer();
    const target = { workspaceId, lane };
    const retried = settle(first.deliver(target, post('one').kind, post('one').payload));
    const queued = settle(first.deliver(target, post('two').kind, post('two').payload));
    // The first call is being retried (back to `pending` between tries); the second waits behind it.
    await waitFor(async () => ((await rows())[0]?.attempts ?? 0) >= 2);

    await first.stop();
    expect(await retried).toEqual({ code: 'delivery_stopped' });
    expect(await queued).toEqual({ code: 'delivery_stopped' });
    expect((await rows()).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(standIn.okCalls('chat.postMessage')).toHaveLength(0);

    standIn.up();
    expect(await w.deliverer().resume()).toMatchObject({ resent: 2, abandoned: 0 });
    await waitFor(async () => (await rows()).every((r) => r.status === 'sent'));
    expect(texts()).toEqual(['one', 'two']);
  }, 20_000);

  it('P7, T2, T3: a stored reply stopped part-way hands back its calls not tried yet, posted once each after the next start', async () => {
    const { standIn, workspaceId, db } = w;
    standIn.down(503);
    const worker = w.deliverer();
    const reply = settle(
      worker.deliverStored(
        { workspaceId, lane },
        [post('the reply'), post('its second part')],
        (write) => db.database.store.transaction((tx) => write(tx)),
        () => {},
      ),
    );
    // Both stored marked `sending`; the first back to `pending` between its tries.
    await waitFor(async () => ((await rows())[0]?.attempts ?? 0) >= 2);
    expect((await rows())[1]?.status).toBe('sending');

    await worker.stop();
    expect(await reply).toEqual({ code: 'delivery_stopped' });
    // The untried second part is not left `sending` (a restart would take that for a send cut
    // short and fail it rather than risk posting twice).
    expect((await rows()).map((r) => r.status)).toEqual(['pending', 'pending']);

    standIn.up();
    expect(await w.deliverer().resume()).toMatchObject({ resent: 2, abandoned: 0 });
    await waitFor(async () => (await rows()).every((r) => r.status === 'sent'));
    expect(texts()).toEqual(['the reply', 'its second part']);
  }, 20_000);

  it('P7, T2: once the stop has begun a call is still tried: a turn that finishes meanwhile still posts', async () => {
    const { workspaceId } = w;
    const worker = w.deliverer();
    await worker.stop();
    const ref = await worker.deliver({ workspaceId, lane }, post('finished during the stop').kind, {
      ...post('finished during the stop').payload,
    });
    expect(ref).toEqual(expect.any(String));
    expect((await rows()).map((r) => r.status)).toEqual(['sent']);
    expect(texts()).toEqual(['finished during the stop']);
  });
});
