import type { EntityManager } from 'typeorm';
import type { ProcessedEventRepository } from '../../../core/ports/store';

export const processedEventRepository = (manager: EntityManager): ProcessedEventRepository => ({
  async record(platform, eventId) {
    // P6: a retried or replayed event finds its row and is dropped; the first delivery inserts it.
    const inserted = await manager.query<{ id: string }[]>(
      `INSERT INTO processed_inbound_events (platform, event_id) VALUES ($1, $2)
       ON CONFLICT ON CONSTRAINT uq_processed_inbound_events_event DO NOTHING
       RETURNING id`,
      [platform, eventId],
    );
    return inserted.length === 1;
  },
});
