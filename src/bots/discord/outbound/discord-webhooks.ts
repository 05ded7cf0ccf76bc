import { type REST, Routes } from 'discord.js';

export interface ChannelWebhook {
  id: string;
  token: string;
}

interface WebhookResponse {
  id: string;
  token?: string;
  application_id: string | null;
}

const WEBHOOK_NAME = 'Summon';

/**
 * P2: one webhook per bound channel, through which every agent posts under its own name and
 * avatar. Created once and reused: after a restart the channel's webhook made by this
 * application is found again instead of making another (Discord allows 15 per channel).
 */
export class DiscordWebhooks {
  private readonly byChannel = new Map<string, Promise<ChannelWebhook>>();
  private readonly ids = new Set<string>();

  constructor(
    private readonly rest: REST,
    private readonly applicationId: () => string,
  ) {}

  forChannel(channelId: string): Promise<ChannelWebhook> {
    let webhook = this.byChannel.get(channelId);
    if (webhook === undefined) {
      webhook = this.findOrCreate(channelId);
      // A failure is not cached: the next post tries again.
      webhook.catch(() => this.byChannel.delete(channelId));
      this.byChannel.set(channelId, webhook);
    }
    return webhook;
  }

  /** Drops the channel's webhook (deleted on Discord); the next post finds or makes another. */
  forget(channelId: string): void {
    this.byChannel.delete(channelId);
  }

  /** P10: a message posted through one of Summon's webhooks (known to this process). */
  isOurs(webhookId: string): boolean {
    return this.ids.has(webhookId);
  }

  private async findOrCreate(channelId: string): Promise<ChannelWebhook> {
    const existing = (await this.rest.get(Routes.channelWebhooks(channelId))) as WebhookResponse[];
    const ours = existing.find((w) => w.application_id === this.applicationId() && w.token !== undefined);
    const webhook =
      ours ??
      ((await this.rest.post(Routes.channelWebhooks(channelId), {
        body: { name: WEBHOOK_NAME },
      })) as WebhookResponse);
    if (webhook.token === undefined)
      throw new Error(`Discord returned webhook ${webhook.id} without a token.`);
    this.ids.add(webhook.id);
    return { id: webhook.id, token: webhook.token };
  }

  /** Remembers the webhooks of channels seen at start-up, so their posts are recognised (P10). */
  async preload(channelIds: readonly string[]): Promise<void> {
    await Promise.all(channelIds.map((id) => this.forChannel(id).catch(() => undefined)));
  }
}
