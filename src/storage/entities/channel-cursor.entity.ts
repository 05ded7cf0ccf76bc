import { EntitySchema } from 'typeorm';
import { PLATFORMS, type Platform } from '../../core/model/platform';
import { oneOf, primaryId, text, timestamp } from './columns';

/** P11: the newest message processed in a channel or thread (see the DiscordBackfill migration). */
export interface ChannelCursorRow {
  id: string;
  platform: Platform;
  channelId: string;
  parentChannelId: string | null;
  lastMessageId: string;
  updatedAt: Date;
}

export const ChannelCursorEntity = new EntitySchema<ChannelCursorRow>({
  name: 'platform_channel_cursors',
  columns: {
    id: primaryId('platform_channel_cursors'),
    platform: text(),
    channelId: text(),
    parentChannelId: text({ nullable: true }),
    lastMessageId: text(),
    updatedAt: timestamp({ defaultNow: true }),
  },
  checks: [{ name: 'ck_platform_channel_cursors_platform', expression: oneOf('platform', PLATFORMS) }],
  uniques: [{ name: 'uq_platform_channel_cursors_channel', columns: ['platform', 'channelId'] }],
  indices: [{ name: 'ix_platform_channel_cursors_updated', columns: ['platform', 'updatedAt'] }],
});
