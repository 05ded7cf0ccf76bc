import { Client, GatewayIntentBits, Partials } from 'discord.js';

export interface DiscordClientOptions {
  /** Overrides the REST base (`https://discord.com/api`) — tests point it at a local stand-in. */
  apiUrl?: string | undefined;
}

/**
 * The discord.js client: guilds, guild messages and their content, direct messages. The
 * gateway URL always comes from `GET /gateway/bot`, as in production, so a REST base override
 * also moves the gateway.
 */
export function createDiscordClient(options: DiscordClientOptions = {}): Client {
  return new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.MessageContent,
      GatewayIntentBits.DirectMessages,
    ],
    // DM channels are not cached before their first message.
    partials: [Partials.Channel],
    ...(options.apiUrl === undefined ? {} : { rest: { api: options.apiUrl } }),
  });
}
