import { RECORD_EVENT } from '../../../src/storage/store/repositories/processed-event-repository';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../support/test-database';
import { indexScansFor, secondaryIndexes } from './plan-indexes';

/**
 * P6, T3: every routed event writes its record (`processed_inbound_events`, kept, never pruned
 * by time) with an entry in each index of the table: it keeps only the key its reads use.
 */
describe.each(DATABASE_KINDS)('the indexes of an event’s record on %s', (kind) => {
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
});
