import type { EntityManager } from 'typeorm';
import type { ChannelCursorRepository } from '../../../core/ports/channel-cursor-store';
import { deferStatement } from '../pending-statements';
import { PreparedStatement } from '../prepared-statement';
import { textLiteral } from '../statements-together';

/**
 * P11: a channel's cursor, which never moves back; $1 the platform, $2 the channel, $3 its
 * parent (a thread's channel) or NULL, $4 the message id. Prepared (T3: one per routed event).
 */
export const ADVANCE_CURSOR = new PreparedStatement(
  ['text', 'text', 'text', 'text'],
  `INSERT INTO platform_channel_cursors (platform, channel_id, parent_channel_id, last_message_id)
   VALUES ($1, $2, $3, $4)
   ON CONFLICT ON CONSTRAINT pk_platform_channel_cursors DO UPDATE
     SET last_message_id = CASE
           WHEN excluded.last_message_id::numeric > platform_channel_cursors.last_message_id::numeric
           THEN excluded.last_message_id ELSE platform_channel_cursors.last_message_id END,
         updated_at = now()`,
);

interface CursorRow {
  channel_id: string;
  parent_channel_id: string | null;
  last_message_id: string;
  updated_at: Date;
}

export const channelCursorRepository = (manager: EntityManager): ChannelCursorRepository => ({
  async advance(platform, cursor) {
    if (!/^[0-9]{1,20}$/.test(cursor.messageId)) {
      throw new RangeError(`A channel cursor is a numeric message id, not "${cursor.messageId}".`);
    }
    const parent = cursor.parentChannelId === null ? 'NULL' : textLiteral(cursor.parentChannelId);
    // P11: the cursor never moves back; a replayed or back-filled older message leaves it.
    // T3: nobody reads its answer, so it goes with the transaction's next message (an upsert
    // cannot miss its row).
    await deferStatement(
      manager,
      ADVANCE_CURSOR.with(
        textLiteral(platform),
        textLiteral(cursor.channelId),
        parent,
        textLiteral(cursor.messageId),
      ),
    );
  },
  async listSince(platform, since) {
    const rows = await manager.query<CursorRow[]>(
      `SELECT channel_id, parent_channel_id, last_message_id, updated_at FROM platform_channel_cursors
       WHERE platform = $1 AND updated_at >= $2 ORDER BY updated_at, channel_id`,
      [platform, since],
    );
    return rows.map((row) => ({
      channelId: row.channel_id,
      parentChannelId: row.parent_channel_id,
      lastMessageId: row.last_message_id,
      updatedAt: new Date(row.updated_at),
    }));
  },
});
