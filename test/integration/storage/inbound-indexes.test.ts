import { RECORD_EVENT } from '../../../src/storage/store/repositories/processed-event-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { indexScansFor, secondaryIndexes } from './plan-indexes';

/**
 * P6, P11, T3: every routed event writes its record (`processed_inbound_events`, kept, never
 * pruned by time) and moves its channel's and thread's back-fill cursors, each write with an entry
 * in each index of its table: they keep only the indexes their reads use.
 */
describe.each(DATABASE_KINDS)('the indexes of an event’s record and cursors on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
  });
  afterAll(() => db.dispose());

  it('P6, T3: an event’s record is read by its key, the one index besides the primary key', async () => {
    const { indexes, byKey } = await db.database.store.transaction(async (tx) => ({
      indexes: await secondaryIndexes(tx, 'processed_inbound_events'),
      byKey: await indexScansFor(
        tx,
        'SELECT 1 FROM processed_inbound_events WHERE platform = $1 AND event_id = $2',
        ['slack', 'C1:1700000000.000100'],
      ),
    }));
    expect(indexes).toEqual(['uq_processed_inbound_events_event']);
    expect(byKey.map((scan) => scan.index)).toEqual(['uq_processed_inbound_events_event']);
    // The record itself is the key's: inserted once, a repeat finds it.
    const recorded = await db.database.store.transaction(async (tx) => [
      await tx.query(RECORD_EVENT.text, ['slack', 'C1:1700000000.000100']),
      await tx.query(RECORD_EVENT.text, ['slack', 'C1:1700000000.000100']),
    ]);
    expect(recorded.map((rows) => rows.length)).toEqual([1, 0]);
  });

  it('P11, T3: a cursor’s key is its platform and channel; its one other index is the one read by time', async () => {
    const { indexes, key, byTime } = await db.database.store.transaction(async (tx) => ({
      indexes: await secondaryIndexes(tx, 'platform_channel_cursors'),
      key: await tx.query<{ def: string }>(
        `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index
          WHERE indrelid = 'platform_channel_cursors'::regclass AND indisprimary`,
      ),
      byTime: await indexScansFor(
        tx,
        'SELECT channel_id FROM platform_channel_cursors WHERE platform = $1 AND updated_at >= $2 ORDER BY updated_at, channel_id',
        ['slack', new Date()],
      ),
    }));
    expect(indexes).toEqual(['ix_platform_channel_cursors_updated']);
    expect(key).toEqual([{ def: expect.stringMatching(/\(platform, channel_id\)$/) }]);
    expect(byTime.map((scan) => scan.index)).toEqual(['ix_platform_channel_cursors_updated']);
    const cursor = { channelId: 'C1', parentChannelId: null };
    await db.database.store.transaction((tx) =>
      tx.channelCursors.advance('slack', { ...cursor, messageId: '1700000000000200' }),
    );
    await db.database.store.transaction((tx) =>
      tx.channelCursors.advance('slack', { ...cursor, messageId: '1700000000000100' }),
    );
    const cursors = await db.database.store.transaction((tx) =>
      tx.channelCursors.listSince('slack', new Date(0)),
    );
    expect(cursors.map((c) => [c.channelId, c.lastMessageId])).toEqual([['C1', '1700000000000200']]);
  });
});
