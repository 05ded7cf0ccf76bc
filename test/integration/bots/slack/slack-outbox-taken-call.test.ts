import { type Logger, silentLogger } from '../../../../src/core/ports/logger';
import type { SqlStoreTx } from '../../../../src/storage/store/sql-store';
import { waitFor } from '../../../support/engine-harness';
import { type OutboxWorkers, openOutboxWorkers } from '../../../support/outbox-workers';
import { CHANNEL } from '../../../support/slack-delivery';
import type { SlackWebApiStandIn } from '../../../support/stand-ins/slack-web-api-stand-in';
import type { TestDatabase } from '../../../support/test-database';

interface Row {
  id: string;
  status: string;
  attempts: number;
  platform_ref: string | null;
  last_error: string | null;
}

/**
 * P7, T2, A12: several workers share one outbox. A call waiting in its deliverer (here: out a
 * 429's Retry-After, its row `pending`) is sent by another worker that starts meanwhile
 * (`resume` sends every pending row); the deliverer it waits in takes that call's outcome for
 * its own: the other's ref once sent, the failure once failed, never a failure of its own.
 */
describe('P7, T2, A12: a call another worker took while it waited in its deliverer', () => {
  let w: OutboxWorkers;
  let db: TestDatabase;
  let standIn: SlackWebApiStandIn;
  let workspaceId: string;
  const lane = `${CHANNEL}:1`;

  beforeEach(async () => {
    w = await openOutboxWorkers('taken-call');
    ({ db, standIn, workspaceId } = w);
  });
  afterEach(() => w.close());

  const deliverer = (abandonAfterMs?: number, logger?: Logger) => w.deliverer(abandonAfterMs, logger);
  const rows = () => w.rows<Row>('id, status, attempts, platform_ref, last_error');
  /** The first worker's call, refused once with a 429: its row back to `pending` for `retryAfterSeconds`. */
  const waitingOutA429 = async (retryAfterSeconds: number, abandonAfterMs?: number) => {
    standIn.failNext('chat.postMessage', { status: 429, retryAfterSeconds });
    const delivered = deliverer(abandonAfterMs).deliver({ workspaceId, lane }, 'chat.postMessage', {
      channel: CHANNEL,
      text: 'waits in its deliverer',
    });
    const outcome = delivered.then(
      (ref) => ({ ref }),
      (error: unknown) => ({ error: String(error) }),
    );
    const mine = async () => (await rows()).at(-1);
    await waitFor(async () => (await mine())?.attempts === 1 && (await mine())?.status === 'pending');
    // Wrapped: an async function's promise would flatten it, waiting for the delivery itself.
    return { outcome };
  };
  const posted = () => standIn.messages.filter((m) => m.text === 'waits in its deliverer');

  it('P7, T2, A12: a call another worker’s resume sent resolves with the ref that worker got, posted once, nothing failed', async () => {
    const { outcome } = await waitingOutA429(2);
    expect(await deliverer().resume()).toMatchObject({ resent: 1, abandoned: 0 });
    await waitFor(async () => (await rows())[0]?.status === 'sent');
    const [row] = await rows();
    expect(row?.platform_ref).toEqual(expect.any(String));

    // Its Retry-After over, the first worker finds the call sent by the other.
    expect(await outcome).toEqual({ ref: row?.platform_ref });
    expect(posted()).toHaveLength(1);
    expect(posted()[0]?.ts).toBe(row?.platform_ref);
    expect(standIn.okCalls('chat.postMessage')).toHaveLength(1);
    expect((await rows()).map((r) => r.status)).toEqual(['sent']);
  }, 30_000);

  it('P7, T2, A12: a call the other worker is still sending is waited for, then resolves with its ref, posted once', async () => {
    const { outcome } = await waitingOutA429(1);
    let settled = false;
    void outcome.then(() => (settled = true));
    standIn.stall();
    expect(await deliverer().resume()).toMatchObject({ resent: 1, abandoned: 0 });
    await waitFor(async () => standIn.stalledCalls('chat.postMessage') === 1);
    expect((await rows()).map((r) => r.status)).toEqual(['sending']);

    // The first worker's Retry-After runs out while the other holds the call in flight: it waits.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(settled).toBe(false);

    // Slack drops the hung connection: the call is tried again, and lands once.
    standIn.up();
    const result = await outcome;
    const [row] = await rows();
    expect(row?.status).toBe('sent');
    expect(result).toEqual({ ref: row?.platform_ref });
    expect(posted()).toHaveLength(1);
    expect(posted()[0]?.ts).toBe(row?.platform_ref);
  }, 30_000);

  it('P7, T2, A12, T3: a stored reply (`deliverStored`) whose first call another worker sent while it waited out a 429: that ref, the rest sent here, only those handed over to record', async () => {
    standIn.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 2 });
    const recorded: string[] = [];
    const outcome = deliverer()
      .deliverStored(
        { workspaceId, lane },
        [
          { kind: 'chat.postMessage', payload: { channel: CHANNEL, text: 'waits in its deliverer' } },
          { kind: 'chat.postMessage', payload: { channel: CHANNEL, text: 'the rest of the reply' } },
        ],
        (write) => db.database.store.transaction((tx) => write(tx)),
        (sent) => recorded.push(...sent.map((call) => call.id)),
      )
      .then(
        (refs) => ({ refs }),
        (error: unknown) => ({ error: String(error) }),
      );
    // Its first call back to `pending` for Retry-After; the second stays `sending`, never resumed.
    await waitFor(async () => (await rows())[0]?.status === 'pending');
    expect(await deliverer().resume()).toMatchObject({ resent: 1, abandoned: 0 });
    await waitFor(async () => (await rows())[0]?.status === 'sent');

    const result = await outcome;
    const [first, rest] = await rows();
    expect(result).toEqual({ refs: [first?.platform_ref, expect.any(String)] });
    expect(recorded).toEqual([rest?.id]);
    expect(posted()).toHaveLength(1);
    expect(standIn.messages.filter((m) => m.text === 'the rest of the reply')).toHaveLength(1);
  }, 30_000);

  it('P7, T2, A12: a resumed call its own deliverer took back is left to it: nothing logged as failed, each call posted once', async () => {
    // A call a dead worker left `pending` in the same thread, stored before the live worker's.
    await db.database.store.transaction((tx) =>
      tx.outbox.add({
        workspaceId,
        platform: 'slack',
        lane,
        kind: 'chat.postMessage',
        payload: { channel: CHANNEL, text: 'left by a dead worker' },
      }),
    );
    const { outcome } = await waitingOutA429(1);
    // The starting worker sends the dead worker's call first, and waits out a 429 of its own.
    standIn.failNext('chat.postMessage', { status: 429, retryAfterSeconds: 2 });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_fields, message) => warnings.push(message) };
    logger.child = () => logger;
    const starting = deliverer(undefined, logger);
    expect(await starting.resume()).toMatchObject({ resent: 2, abandoned: 0 });

    // Its own Retry-After over first, the live worker takes its call back and sends it; the
    // starting one comes to that call after its own and finds it sent.
    expect(await outcome).toEqual({ ref: expect.any(String) });
    await starting.drain();
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(warnings).toEqual([]);
    expect(posted()).toHaveLength(1);
    expect(standIn.messages.filter((m) => m.text === 'left by a dead worker')).toHaveLength(1);
  }, 30_000);

  it('P7, T2, A12: a call its taker left `sending` (it died) fails once the mark is old enough, never sent', async () => {
    const { outcome } = await waitingOutA429(1, 1_000);
    // Another worker takes the call and dies before it goes out: its mark stays.
    const [waiting] = await rows();
    await db.database.store.transaction((tx) =>
      (tx as SqlStoreTx).query(`UPDATE outbox SET status = 'sending', sending_since = now() WHERE id = $1`, [
        waiting?.id,
      ]),
    );

    expect(await outcome).toEqual({ error: expect.stringMatching(/interrupted while sending/) });
    expect((await rows()).map((r) => r.status)).toEqual(['failed']);
    expect(posted()).toEqual([]);
    expect(standIn.okCalls('chat.postMessage')).toEqual([]);
  }, 30_000);
});
