import type { EntityManager } from 'typeorm';
import type { ProcessedEventRepository } from '../../../core/ports/store';
import { queryTogether, textLiteral } from '../statements-together';

export const processedEventRepository = (manager: EntityManager): ProcessedEventRepository => ({
  async record(platform, eventId) {
    // P6: a retried or replayed event finds its row and is dropped; the first delivery inserts it.
    // T3: sent together, so that routing's reads made with it share its round trip.
    const [inserted] = await queryTogether(manager, [
      `INSERT INTO processed_inbound_events (platform, event_id) VALUES (${textLiteral(platform)}, ${textLiteral(eventId)})
       ON CONFLICT ON CONSTRAINT uq_processed_inbound_events_event DO NOTHING
       RETURNING id`,
    ]);
    return (inserted ?? []).length === 1;
  },
});
