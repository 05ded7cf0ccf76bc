import { EntitySchema } from 'typeorm';
import { INBOX_OUTCOMES, type InboxOutcome } from '../../core/model/inbox';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import { creationSeq, integer, jsonb, oneOf, primaryId, text, timestamp } from './columns';

/** T4: an inbound event stored before it is acknowledged (see the InboundInbox migration). */
export interface InboxRow {
  id: string;
  seq: string;
  platform: Platform;
  eventId: string;
  threadKey: string;
  channelKey: string | null;
  payload: unknown;
  receivedAt: Date;
  attempts: number;
  availableAt: Date;
  routedAt: Date | null;
  outcome: InboxOutcome | null;
  lastError: string | null;
}

export const InboxEntity = new EntitySchema<InboxRow>({
  name: 'inbound_inbox',
  columns: {
    id: primaryId('inbound_inbox'),
    seq: creationSeq,
    platform: text(),
    eventId: text(),
    threadKey: text(),
    channelKey: text({ nullable: true }),
    payload: jsonb('{}'),
    receivedAt: timestamp({ defaultNow: true }),
    attempts: integer({ default: 0 }),
    availableAt: timestamp({ defaultNow: true }),
    routedAt: timestamp({ nullable: true }),
    outcome: text({ nullable: true }),
    lastError: text({ nullable: true }),
  },
  checks: [
    { name: 'ck_inbound_inbox_platform', expression: oneOf('platform', PLATFORMS) },
    { name: 'ck_inbound_inbox_outcome', expression: oneOf('outcome', INBOX_OUTCOMES) },
    { name: 'ck_inbound_inbox_routed', expression: '(routed_at IS NULL) = (outcome IS NULL)' },
    { name: 'ck_inbound_inbox_attempts', expression: 'attempts >= 0' },
  ],
  uniques: [{ name: 'uq_inbound_inbox_event', columns: ['platform', 'eventId'] }],
  indices: [
    // T4: the claim's window, oldest first (`claimRun`); and the prune's routed rows, only those.
    { name: 'ix_inbound_inbox_pending', columns: ['seq'], where: 'routed_at IS NULL' },
    { name: 'ix_inbound_inbox_routed', columns: ['routedAt'], where: 'routed_at IS NOT NULL' },
  ],
});
