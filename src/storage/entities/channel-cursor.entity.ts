import { EntitySchema } from 'typeorm';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import { oneOf, text, timestamp } from './columns';

/** P11: the newest message processed in a channel or thread (see the DiscordBackfill migration). */
export interface ChannelCursorRow {
  platform: Platform;
  channelId: string;
  parentChannelId: string | null;
  lastMessageId: string;
  updatedAt: Date;
}

export const ChannelCursorEntity = new EntitySchema<ChannelCursorRow>({
  name: 'platform_channel_cursors',
  columns: {
    // T3: the key is what the upsert finds a cursor by; it has no id.
    platform: { ...text(), primary: true, primaryKeyConstraintName: 'pk_platform_channel_cursors' },
    channelId: { ...text(), primary: true, primaryKeyConstraintName: 'pk_platform_channel_cursors' },
    parentChannelId: text({ nullable: true }),
    lastMessageId: text(),
    updatedAt: timestamp({ defaultNow: true }),
  },
  checks: [{ name: 'ck_platform_channel_cursors_platform', expression: oneOf('platform', PLATFORMS) }],
  indices: [{ name: 'ix_platform_channel_cursors_updated', columns: ['platform', 'updatedAt'] }],
});
