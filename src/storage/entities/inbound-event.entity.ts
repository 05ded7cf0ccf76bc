import { EntitySchema } from 'typeorm';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import { creationSeq, oneOf, primaryId, text, timestamp } from './columns';

/**
 * P6/P11: a platform event already handled. Not owned by a workspace: de-duplication happens
 * before the event is resolved to one, in the system context.
 */
export interface ProcessedInboundEventRow {
  id: string;
  seq: string;
  platform: Platform;
  eventId: string;
  receivedAt: Date;
}

export const ProcessedInboundEventEntity = new EntitySchema<ProcessedInboundEventRow>({
  name: 'processed_inbound_events',
  columns: {
    id: primaryId('processed_inbound_events'),
    seq: creationSeq,
    platform: text(),
    eventId: text(),
    receivedAt: timestamp({ defaultNow: true }),
  },
  checks: [{ name: 'ck_processed_inbound_events_platform', expression: oneOf('platform', PLATFORMS) }],
  // P6: read only by its key (records are kept, never pruned by time).
  uniques: [{ name: 'uq_processed_inbound_events_event', columns: ['platform', 'eventId'] }],
});
