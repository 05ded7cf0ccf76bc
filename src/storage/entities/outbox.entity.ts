import { EntitySchema } from 'typeorm';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import {
  createdAt,
  creationSeq,
  integer,
  jsonb,
  oneOf,
  primaryId,
  sameWorkspaceForeignKey,
  text,
  timestamp,
  uuid,
  workspaceForeignKey,
} from './columns';

export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** P7: an outgoing platform call, kept until it was delivered (rate limits, restarts). */
export interface OutboxRow {
  id: string;
  seq: string;
  workspaceId: string;
  /** P7: calls of one lane (a thread) go one at a time, in order. */
  lane: string;
  conversationId: string | null;
  platform: Platform;
  /** What to do on the platform (post, edit, ephemeral…); the sender owns the vocabulary. */
  kind: string;
  payload: unknown;
  status: OutboxStatus;
  attempts: number;
  availableAt: Date;
  sentAt: Date | null;
  /** P7, T2: when it was marked `sending`; a mark older than any live send is its dead sender's. */
  sendingSince: Date | null;
  platformRef: string | null;
  lastError: string | null;
  createdAt: Date;
}

export const OutboxEntity = new EntitySchema<OutboxRow>({
  name: 'outbox',
  columns: {
    id: primaryId('outbox'),
    seq: creationSeq,
    workspaceId: uuid(),
    lane: text({ default: '' }),
    conversationId: uuid(true),
    platform: text(),
    kind: text(),
    payload: jsonb('{}'),
    status: text({ default: 'pending' }),
    attempts: integer({ default: 0 }),
    availableAt: timestamp({ defaultNow: true }),
    sentAt: timestamp({ nullable: true }),
    sendingSince: timestamp({ nullable: true }),
    platformRef: text({ nullable: true }),
    lastError: text({ nullable: true }),
    createdAt,
  },
  foreignKeys: [
    workspaceForeignKey('outbox'),
    sameWorkspaceForeignKey('fk_outbox_conversation', 'conversationId', 'conversations', 'CASCADE'),
  ],
  checks: [
    { name: 'ck_outbox_platform', expression: oneOf('platform', PLATFORMS) },
    { name: 'ck_outbox_status', expression: oneOf('status', OUTBOX_STATUSES) },
    { name: 'ck_outbox_attempts', expression: 'attempts >= 0' },
  ],
  // P7, T3: every read by status names the platform (a lane's calls, a restart's, the pruning).
  indices: [{ name: 'ix_outbox_lane', columns: ['platform', 'status', 'seq'] }],
});
