import type { Channel, DiscordStandIn, Interaction, StandInUser, Webhook } from './discord-stand-in';

/** Discord's objects as the stand-in sends them (gateway payloads and REST answers). */

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

export function guildCreate(s: DiscordStandIn): unknown {
  const channels = [...s.channels.values()].filter((c) => c.type === 0);
  const threads = [...s.channels.values()].filter((c) => c.type === 11);
  return {
    id: s.guildId,
    name: 'Stand-in Guild',
    icon: null,
    owner_id: s.bot.id,
    unavailable: false,
    member_count: 3,
    large: false,
    joined_at: new Date().toISOString(),
    features: [],
    emojis: [],
    stickers: [],
    afk_timeout: 300,
    roles: [
      {
        id: s.guildId,
        name: '@everyone',
        permissions: '1071698660929',
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    channels: channels.map((c) => ({
      id: c.id,
      type: 0,
      name: c.name,
      position: 0,
      permission_overwrites: [],
      parent_id: null,
      nsfw: false,
      topic: null,
    })),
    threads: threads.map((t) => threadObject(s, t)),
    members: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
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
        : { id: channel.id, type: channel.type, name: channel.name, guild_id: s.guildId },
    member: {
      user: s.userObject(user),
      roles: [],
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
