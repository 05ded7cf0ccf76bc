import { filledIn, fixture } from './discord-fixtures';
import type {
  Channel,
  DiscordStandIn,
  Interaction,
  StandInUser,
  StoredMessage,
  Webhook,
} from './discord-stand-in';

/**
 * Discord's objects as the stand-in sends them (gateway payloads and REST answers); the gateway's
 * READY, GUILD_CREATE, MESSAGE_CREATE and INTERACTION_CREATE are the recorded payloads of
 * `test/fixtures/discord/`, filled in.
 */

export function webhookObject(s: DiscordStandIn, webhook: Webhook): unknown {
  return {
    id: webhook.id,
    type: 1,
    guild_id: webhook.guild_id,
    channel_id: webhook.channel_id,
    name: webhook.name,
    avatar: null,
    token: webhook.token,
    application_id: webhook.application_id,
    user: s.userObject(s.bot),
  };
}

export function threadObject(s: DiscordStandIn, thread: Channel): Record<string, unknown> {
  return {
    id: thread.id,
    type: 11,
    guild_id: s.guildId,
    parent_id: thread.parent_id,
    name: thread.name,
    owner_id: s.bot.id,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: 1440,
      archive_timestamp: new Date().toISOString(),
      locked: false,
    },
  };
}

/** GUILD_CREATE: the recorded guild, filled in with the stand-in's guild, channels and threads. */
export function guildCreate(s: DiscordStandIn): unknown {
  const recorded = fixture('guild-create');
  const channels = [...s.channels.values()].filter((c) => c.type === 0);
  const threads = [...s.channels.values()].filter((c) => c.type === 11);
  const [role] = recorded.roles as Record<string, unknown>[];
  const [channel] = recorded.channels as Record<string, unknown>[];
  return filledIn('guild-create', {
    id: s.guildId,
    name: 'Stand-in Guild',
    owner_id: s.bot.id,
    system_channel_id: channels[0]?.id ?? null,
    joined_at: new Date().toISOString(),
    member_count: 3,
    large: s.members.large,
    roles: [
      { ...role, id: s.guildId },
      // The bot's managed role: `tags.bot_id` names the bot it belongs to.
      {
        ...role,
        id: s.botRoleId,
        name: s.bot.username,
        managed: true,
        position: 1,
        tags: { bot_id: s.bot.id },
      },
      // P24: the server roles a test made.
      ...[...s.members.roles].map(([id, name], i) => ({ ...role, id, name, position: 2 + i })),
    ],
    members: s.members.all(),
    channels: channels.map((c) => ({ ...channel, id: c.id, name: c.name ?? '' })),
    threads: threads.map((t) => threadObject(s, t)),
  });
}

/** READY: the recorded one, for the stand-in's bot, guild and session. */
export function ready(s: DiscordStandIn, sessionId: string): unknown {
  return filledIn('ready', {
    user: { ...s.userObject(s.bot), verified: true, flags: 0 },
    guilds: [{ id: s.guildId, unavailable: true }],
    session_id: sessionId,
    resume_gateway_url: s.wsUrl,
    shard: [0, 1],
    application: { id: s.applicationId, flags: 0 },
  });
}

/** MESSAGE_CREATE of a person's message: the recorded one for a guild channel, a thread or a DM. */
export function personMessageCreate(
  s: DiscordStandIn,
  message: StoredMessage,
  channel: Channel,
  author: StandInUser,
): unknown {
  const name =
    channel.type === 1
      ? 'message-create-dm'
      : channel.type === 11
        ? 'message-create-thread'
        : 'message-create-guild';
  return filledIn(name, {
    ...s.wire(message),
    ...(channel.guild_id === undefined
      ? {}
      : {
          guild_id: channel.guild_id,
          member: {
            joined_at: new Date().toISOString(),
            roles: s.members.rolesOf(author.id),
            nick: s.members.nickOf(author.id),
          },
        }),
    channel_type: channel.type,
    author: s.userObject(author),
    nonce: message.id,
  });
}

/** MESSAGE_CREATE of a webhook's post (P10: Summon must not answer its own personas). */
export function webhookMessageCreate(s: DiscordStandIn, message: StoredMessage): unknown {
  return filledIn('message-create-webhook', {
    ...s.wire(message),
    guild_id: s.guildId,
    channel_type: s.channel(message.channel_id).type,
  });
}

/**
 * INTERACTION_CREATE: the recorded click, command or autocomplete, filled in with the stand-in's
 * interaction, person and channel (in a DM: no guild, no member, the user instead).
 */
export function interactionCreate(
  s: DiscordStandIn,
  name: 'interaction-button' | 'interaction-command' | 'interaction-autocomplete',
  interaction: Interaction,
  user: StandInUser,
  values: { type: number; data: Record<string, unknown>; message?: unknown },
): Record<string, unknown> {
  const { channel, ...base } = interactionBase(s, interaction, user);
  const dm = base.context === 1;
  const filled = filledIn(name, {
    ...base,
    ...(dm
      ? { guild_id: undefined, guild: undefined, guild_locale: undefined, member: undefined }
      : { guild: { id: s.guildId } }),
    // Replaced whole below: a channel or message is the stand-in's own, not merged with the recording's.
    channel: undefined,
    message: undefined,
    type: values.type,
    data: values.data,
  });
  return { ...filled, channel, ...(values.message === undefined ? {} : { message: values.message }) };
}

export function interactionBase(
  s: DiscordStandIn,
  interaction: Interaction,
  user: StandInUser,
): Record<string, unknown> {
  const channel = s.channel(interaction.channelId);
  // In a direct message with the bot: no guild and no member, the user; context 1 (BOT_DM).
  if (channel.type === 1)
    return {
      id: interaction.id,
      application_id: s.applicationId,
      token: interaction.token,
      version: 1,
      channel_id: channel.id,
      channel: {
        id: channel.id,
        type: 1,
        last_message_id: null,
        flags: 0,
        recipients: (channel.recipients ?? []).map((u) => s.userObject(u)),
      },
      user: s.userObject(user),
      app_permissions: '1071698660929',
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { 0: s.guildId },
      context: 1,
      attachment_size_limit: 10_485_760,
    };
  return {
    id: interaction.id,
    application_id: s.applicationId,
    token: interaction.token,
    version: 1,
    guild_id: s.guildId,
    channel_id: channel.id,
    channel:
      channel.type === 11
        ? threadObject(s, channel)
        : {
            ...(fixture('interaction-command').channel as Record<string, unknown>),
            id: channel.id,
            type: channel.type,
            name: channel.name,
            guild_id: s.guildId,
          },
    member: {
      user: s.userObject(user),
      roles: s.members.rolesOf(user.id),
      nick: s.members.nickOf(user.id),
      permissions: '1071698660929',
      joined_at: new Date().toISOString(),
      deaf: false,
      mute: false,
      flags: 0,
    },
    app_permissions: '1071698660929',
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { 0: s.guildId },
    context: 0,
    attachment_size_limit: 10_485_760,
  };
}
