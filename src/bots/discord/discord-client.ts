import { Client, GatewayIntentBits, Partials } from 'discord.js';

export interface DiscordClientOptions {
  /** Overrides the REST base (`https://discord.com/api`) — tests point it at a local stand-in. */
  apiUrl?: string | undefined;
  /** P24: ask for the privileged Server Members intent (a workspace's `access` names a Discord role). */
  members?: boolean;
}

/**
 * The discord.js client: guilds, guild messages and their content, direct messages, and (P24,
 * only when asked) guild members, whose role changes then arrive live. The
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
      ...(options.members === true ? [GatewayIntentBits.GuildMembers] : []),
    ],
    // DM channels are not cached before their first message.
    partials: [Partials.Channel],
    ...(options.apiUrl === undefined ? {} : { rest: { api: options.apiUrl } }),
  });
}
