import type { PlatformSender } from '../../../src/core/outbox/delivery-error';
import { DeliveryError } from '../../../src/core/outbox/delivery-error';
import { OutboxDeliverer } from '../../../src/core/outbox/outbox-deliverer';
import { silentLogger } from '../../../src/core/ports/logger';
import type { SentCall } from '../../../src/core/ports/outbox';
import type { SqlStoreTx } from '../../../src/storage/store/sql-store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';

/** A platform that answers every call (`ts-1`, `ts-2`…), recording what it was sent. */
class CountingPlatform implements PlatformSender {
  readonly calls: { kind: string; payload: unknown }[] = [];
  async send(kind: string, payload: unknown): Promise<string | null> {
    this.calls.push({ kind, payload });
    return `ts-${this.calls.length}`;
  }
}

/**
 * P7, T2: calls stored in the caller's transaction (`deliverStored`: a turn's reply and the
 * calls that post it, one commit): written with what the caller records or not at all, sent
 * once that commits, in order, each recorded as sent.
 */
describe.each(DATABASE_KINDS)('P7, T2: outgoing calls stored with the caller’s write, on %s', (kind) => {
  let db: TestDatabase;
  let workspaceId: string;
  let n = 0;
  let lane: string;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    workspaceId = (
      await db.database.store.transaction((tx) =>
        tx.workspaces.insert({ slug: 'outbox-stored', name: 'Stored' }),
      )
    ).id;
  });
  afterAll(() => db.dispose());
  beforeEach(() => {
    n += 1;
    lane = `C1:${n}`;
  });

  const rowsOf = (laneKey: string) =>
    db.database.store.transaction((tx) =>
      (tx as SqlStoreTx).query<{ status: string; platform_ref: string | null; kind: string }>(
        'SELECT status, platform_ref, kind FROM outbox WHERE lane = $1 ORDER BY seq',
        [laneKey],
      ),
    );
  const workspaceNamed = (slug: string) =>
    db.database.store.transaction((tx) => tx.workspaces.findBySlug(slug));

  it('P7, T2: the calls and the caller’s write commit together, then go out in order, each recorded as sent', async () => {
    const platform = new CountingPlatform();
    const deliverer = new OutboxDeliverer({
      store: db.database.store,
      platform: 'slack',
      sender: platform,
      logger: silentLogger,
    });
    const slug = `with-calls-${n}`;
    const refs = await deliverer.deliverStored(
      { workspaceId, lane },
      [
        { kind: 'chat.postMessage', payload: { text: 'part 1' } },
        { kind: 'chat.postMessage', payload: { text: 'part 2' } },
      ],
      (write) =>
        db.database.store.transaction(async (tx) => {
          // Nothing is sent before the caller's transaction has committed.
          expect(platform.calls).toEqual([]);
          await tx.workspaces.insert({ slug, name: 'Written with the calls' });
          await write(tx);
        }),
    );
    expect(refs).toEqual(['ts-1', 'ts-2']);
    expect(platform.calls.map((c) => c.payload)).toEqual([{ text: 'part 1' }, { text: 'part 2' }]);
    expect(await rowsOf(lane)).toEqual([
      { status: 'sent', platform_ref: 'ts-1', kind: 'chat.postMessage' },
      { status: 'sent', platform_ref: 'ts-2', kind: 'chat.postMessage' },
    ]);
    expect(await workspaceNamed(slug)).not.toBeNull();
  });

  it('P7, T2: a caller’s write that fails stores no call and sends nothing', async () => {
    const platform = new CountingPlatform();
    const deliverer = new OutboxDeliverer({
      store: db.database.store,
      platform: 'slack',
      sender: platform,
      logger: silentLogger,
    });
    await expect(
      deliverer.deliverStored(
        { workspaceId, lane },
        [{ kind: 'chat.postMessage', payload: { text: 'hi' } }],
        (write) =>
          db.database.store.transaction(async (tx) => {
            await write(tx);
            throw new Error('the reply could not be stored');
          }),
      ),
    ).rejects.toThrow('the reply could not be stored');
    expect(platform.calls).toEqual([]);
    expect(await rowsOf(lane)).toEqual([]);
    // The lane goes on: the next call of the thread is delivered.
    await expect(deliverer.deliver({ workspaceId, lane }, 'chat.update', { text: 'next' })).resolves.toBe(
      'ts-1',
    );
  });

  it('P7, T3: with `recordSent`, the calls that went out are handed to the caller to record with its next commit; until then they stay on their way', async () => {
    const platform = new CountingPlatform();
    const deliverer = new OutboxDeliverer({
      store: db.database.store,
      platform: 'slack',
      sender: platform,
      logger: silentLogger,
    });
    const handed: SentCall[][] = [];
    const refs = await deliverer.deliverStored(
      { workspaceId, lane },
      [
        { kind: 'chat.postMessage', payload: { text: 'part 1' } },
        { kind: 'chat.postMessage', payload: { text: 'part 2' } },
      ],
      (write) => db.database.store.transaction(write),
      (sent) => handed.push([...sent]),
    );
    expect(refs).toEqual(['ts-1', 'ts-2']);
    expect(handed.map((sent) => sent.map((call) => call.ref))).toEqual([['ts-1', 'ts-2']]);
    // Not marked by the deliverer: a restart meanwhile would never send them again.
    expect((await rowsOf(lane)).map((row) => row.status)).toEqual(['sending', 'sending']);
    await db.database.store.transaction((tx) =>
      Promise.all((handed[0] ?? []).map((call) => tx.outbox.markSent(call.id, call.ref))),
    );
    expect(await rowsOf(lane)).toEqual([
      { status: 'sent', platform_ref: 'ts-1', kind: 'chat.postMessage' },
      { status: 'sent', platform_ref: 'ts-2', kind: 'chat.postMessage' },
    ]);
  });

  it('P7: with `recordSent`, a delivery that fails hands nothing over and marks those that went out itself', async () => {
    const refusing: PlatformSender = {
      send: async (_kind, payload) => {
        if ((payload as { text: string }).text === 'part 2')
          throw new DeliveryError('refused', { kind: 'never' });
        return 'ts-1';
      },
    };
    const deliverer = new OutboxDeliverer({
      store: db.database.store,
      platform: 'slack',
      sender: refusing,
      logger: silentLogger,
    });
    const handed: SentCall[][] = [];
    await expect(
      deliverer.deliverStored(
        { workspaceId, lane },
        [
          { kind: 'chat.postMessage', payload: { text: 'part 1' } },
          { kind: 'chat.postMessage', payload: { text: 'part 2' } },
        ],
        (write) => db.database.store.transaction(write),
        (sent) => handed.push([...sent]),
      ),
    ).rejects.toThrow('refused');
    expect(handed).toEqual([]);
    expect((await rowsOf(lane)).map((row) => row.status)).toEqual(['sent', 'failed']);
  });
});
