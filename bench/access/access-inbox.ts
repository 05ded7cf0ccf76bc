import type { TurnEngine } from '../../src/core/engine/turn-engine';
import type { InboxRecord } from '../../src/core/model/inbox';
import type { ReceiveOutcome } from '../../src/core/ports/chat-engine';
import type { InboundMessage } from '../../src/core/ports/chat-platform';
import type { InboxDecision, InboxDecoder } from '../../src/core/ports/inbox-decoder';

/**
 * The access bench's inbox path (T4, as messages really arrive): each message stored by
 * `engine.ingest` (the ack's one write), then routed by the inbox router with the rows claimed
 * with it, in batches. Its decoder reads what Discord's does for a guild message (the channel
 * bound in the guild, the back-fill cursor moved in the routing transaction) and previews the
 * message as Slack's does (routing's reads asked with its own, T3); a message is done when its
 * routing committed and its runs were queued (the decision's `afterCommit`).
 */
export class InboxDriver {
  private readonly waiting = new Map<string, (outcome: ReceiveOutcome) => void>();

  constructor(private readonly engine: TurnEngine) {
    engine.routeInboxWith('discord', this.decoder);
  }

  /** Stores the message in the inbox; resolves with its routing's outcome. */
  async send(message: InboundMessage): Promise<ReceiveOutcome> {
    const routed = new Promise<ReceiveOutcome>((resolve) => this.waiting.set(message.eventId, resolve));
    await this.engine.ingest({
      platform: 'discord',
      eventId: message.eventId,
      threadKey: message.thread,
      channelKey: message.topLevel ? `discord:${message.channelId}` : null,
      payload: { ...message, receivedAt: message.receivedAt.toISOString() },
      receivedAt: message.receivedAt,
    });
    return routed;
  }

  private readonly decoder: InboxDecoder = {
    preview: (record) => messageOf(record),
    decode: async (record, directory): Promise<InboxDecision> => {
      const message = messageOf(record);
      const guild = 'externalId' in message.workspace ? message.workspace.externalId : '';
      if (!(await directory.isBoundChannel('discord', message.channelId, guild)))
        return { kind: 'drop', reason: 'channel not bound to a space' };
      await directory.advanceCursor('discord', {
        channelId: message.channelId,
        parentChannelId: null,
        messageId: message.messageRef,
      });
      return {
        kind: 'route',
        message,
        afterCommit: async (outcome) => {
          this.waiting.get(message.eventId)?.(outcome);
          this.waiting.delete(message.eventId);
        },
      };
    },
  };
}

function messageOf(record: InboxRecord): InboundMessage {
  const payload = record.payload as InboundMessage & { receivedAt: string };
  return { ...payload, receivedAt: new Date(payload.receivedAt) };
}
