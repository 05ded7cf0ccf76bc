import type { EntityManager } from 'typeorm';
import type { ProcessedEventRepository } from '../../../core/ports/store';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { queryTogether, textLiteral } from '../statements-together';
import { askAhead, takeAhead } from '../transaction-read-memo';

/** P6: an event's record; $1 the platform, $2 its de-duplication key. Prepared (T3: one per routed event). */
export const RECORD_EVENT = new PreparedStatement(
  ['text', 'text'],
  `INSERT INTO processed_inbound_events (platform, event_id) VALUES ($1, $2)
   ON CONFLICT ON CONSTRAINT uq_processed_inbound_events_event DO NOTHING
   RETURNING id`,
);

/** P6: the record of an event this transaction made and then dropped; $1 the platform, $2 its key. */
const UNRECORD_EVENT = new PreparedStatement(
  ['text', 'text'],
  'DELETE FROM processed_inbound_events WHERE platform = $1 AND event_id = $2',
);

const recordKey = (platform: string, eventId: string): string =>
  JSON.stringify(['recorded', platform, eventId]);

export const processedEventRepository = (manager: EntityManager): ProcessedEventRepository => {
  const recordNow = async (platform: string, eventId: string): Promise<boolean> => {
    // P6: a retried or replayed event finds its row and is dropped; the first delivery inserts it.
    // T3: sent together, so that routing's reads made with it share its round trip.
    const [inserted] = await queryTogether(manager, [
      RECORD_EVENT.with(textLiteral(platform), textLiteral(eventId)),
    ]);
    return (inserted ?? []).length === 1;
  };
  return {
    record(platform, eventId) {
      return (
        takeAhead<boolean>(manager.queryRunner, recordKey(platform, eventId)) ?? recordNow(platform, eventId)
      );
    },
    recordAhead(platform, eventId) {
      askAhead(manager.queryRunner, recordKey(platform, eventId), () => recordNow(platform, eventId), null);
    },
    async forgetAhead(platform, eventId) {
      const recorded = takeAhead<boolean>(manager.queryRunner, recordKey(platform, eventId));
      // Only a record this transaction inserted is taken back (false: another delivery's stands).
      if (recorded === undefined || !(await recorded)) return;
      await deferStatement(manager, UNRECORD_EVENT.with(textLiteral(platform), textLiteral(eventId)));
    },
  };
};
