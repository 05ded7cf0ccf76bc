import { threadObject, webhookMessageCreate, webhookObject } from './discord-payloads';
import {
  asStored,
  checkMessageLimits,
  checkResponse,
  checkSchema,
  checkWebhookName,
  DiscordRefusal,
  type MessageBody,
  numbered,
  pingsOf,
} from './discord-rules';
import type { Channel, DiscordStandIn, RecordedCall, StoredMessage, Webhook } from './discord-stand-in';

/**
 * The Discord stand-in's REST routes: each validates its request as Discord does (known
 * routes only, bot or webhook token, the body against Discord's OpenAPI description and its
 * limits) and answers with Discord's shapes, checked against the same description.
 */

function requireBot(s: DiscordStandIn, call: RecordedCall): void {
  if (call.authorization !== `Bot ${s.token}`)
    throw new DiscordRefusal(401, { code: 0, message: '401: Unauthorized' });
}

export function route(s: DiscordStandIn, call: RecordedCall, query: URLSearchParams): unknown {
  const { method, path } = call;
  const body = (call.body ?? {}) as Record<string, unknown>;
  const m = (pattern: RegExp) => pattern.exec(path);
  let match: RegExpExecArray | null;
  if (method === 'GET' && path === '/api/v10/users/@me') {
    requireBot(s, call);
    return checkResponse('UserPIIResponseSchema', {
      ...s.userObject(s.bot),
      verified: true,
      flags: 0,
      mfa_enabled: false,
      locale: 'en-US',
    });
  }
  if (method === 'GET' && path === '/api/v10/applications/@me') {
    requireBot(s, call);
    return checkResponse('PrivateApplicationResponseSchema', {
      id: s.applicationId,
      name: s.bot.username,
      icon: null,
      description: '',
      type: null,
      bot: { ...s.userObject(s.bot), flags: 0 },
      flags: s.applicationFlags,
      verify_key: 'a'.repeat(64),
      redirect_uris: [],
      interactions_endpoint_url: null,
      role_connections_verification_url: null,
      owner: { ...s.userObject({ id: s.newId(), username: 'owner', bot: false }), flags: 0 },
      approximate_guild_count: 1,
      approximate_user_install_count: 0,
      team: null,
      bot_public: false,
      bot_require_code_grant: false,
      flags_new: String(s.applicationFlags),
      approximate_user_authorization_count: 0,
      explicit_content_filter: 0,
      eligible_oauth2_scopes: ['bot', 'applications.commands'],
    });
  }
  if (method === 'GET' && path === '/api/v10/gateway/bot') {
    requireBot(s, call);
    return checkResponse('GatewayBotResponseSchema', {
      url: s.wsUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
    });
  }
  match = method === 'GET' ? m(/^\/api\/v10\/guilds\/([0-9]+)\/members\/([0-9]+)$/) : null;
  if (match) {
    // P24: one guild member, with their roles; 10007 for someone not in the guild.
    requireBot(s, call);
    const member = match[1] === s.guildId ? s.members.memberObject(match[2] ?? '') : null;
    if (member === null) throw new DiscordRefusal(404, { code: 10007, message: 'Unknown Member' });
    return checkResponse('GuildMemberResponseSchema', member);
  }
  match = method === 'GET' ? m(/^\/api\/v10\/channels\/([0-9]+)$/) : null;
  if (match) {
    requireBot(s, call);
    const channel = s.channel(match[1] ?? '');
    return channel.type === 11
      ? checkResponse('ThreadResponseSchema', threadObject(s, channel))
      : {
          id: channel.id,
          type: channel.type,
          guild_id: channel.guild_id,
          name: channel.name,
          position: 0,
          permission_overwrites: [],
          parent_id: null,
          nsfw: false,
          topic: null,
          last_message_id: null,
          rate_limit_per_user: 0,
          flags: 0,
        };
  }
  match = m(/^\/api\/v10\/channels\/([0-9]+)\/messages$/);
  if (match) {
    requireBot(s, call);
    const channelId = match[1] ?? '';
    if (method === 'GET') return listMessages(s, channelId, query);
    if (method === 'POST') {
      checkSchema('MessageCreateRequestSchema', body);
      checkMessageLimits(body as MessageBody, { create: true });
      const message = s.storeMessage(channelId, s.userObject(s.bot), body as MessageBody, {});
      return checkResponse('MessageResponseSchema', s.wire(message));
    }
  }
  match = method === 'PATCH' ? m(/^\/api\/v10\/channels\/([0-9]+)\/messages\/([0-9]+)$/) : null;
  if (match) {
    requireBot(s, call);
    checkSchema('MessageEditRequestPartialSchema', body);
    checkMessageLimits(body as MessageBody, { create: false });
    const message = (s.messages.get(match[1] ?? '') ?? []).find((msg) => msg.id === match?.[2]);
    if (message === undefined) throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
    if (message.author.id !== s.bot.id)
      throw new DiscordRefusal(403, {
        code: 50005,
        message: 'Cannot edit a message authored by another user',
      });
    applyEdit(s, message, body as MessageBody);
    return checkResponse('MessageResponseSchema', s.wire(message));
  }
  match = method === 'POST' ? m(/^\/api\/v10\/channels\/([0-9]+)\/messages\/([0-9]+)\/threads$/) : null;
  if (match) {
    requireBot(s, call);
    checkSchema('CreateTextThreadWithMessageRequestSchema', body);
    return startThread(s, match[1] ?? '', match[2] ?? '', String(body.name));
  }
  match = m(/^\/api\/v10\/channels\/([0-9]+)\/webhooks$/);
  if (match) {
    requireBot(s, call);
    const channel = s.channel(match[1] ?? '');
    if (method === 'GET')
      return [...s.webhooks.values()]
        .filter((w) => w.channel_id === channel.id)
        .map((w) => checkResponse('GuildIncomingWebhookResponseSchema', webhookObject(s, w)));
    if (method === 'POST') {
      checkWebhookName(body.name as string | undefined, 'name');
      if (body.name === undefined)
        throw new DiscordRefusal(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { name: 'required' },
        });
      const webhook: Webhook = {
        id: s.newId(),
        token: `wh-token-${s.newId()}`,
        channel_id: channel.id,
        guild_id: s.guildId,
        application_id: s.applicationId,
        name: String(body.name),
      };
      s.webhooks.set(webhook.id, webhook);
      return checkResponse('GuildIncomingWebhookResponseSchema', webhookObject(s, webhook));
    }
  }
  match = method === 'POST' ? m(/^\/api\/v10\/webhooks\/([0-9]+)\/([^/]+)$/) : null;
  if (match) {
    return executeWebhook(s, match[1] ?? '', match[2] ?? '', body as MessageBody, query);
  }
  match =
    method === 'PATCH' ? m(/^\/api\/v10\/webhooks\/([0-9]+)\/([^/]+)\/messages\/([0-9]+|@original)$/) : null;
  if (match) {
    return editWebhookMessage(s, match[1] ?? '', match[2] ?? '', match[3] ?? '', body as MessageBody, query);
  }
  if (path === '/api/v10/users/@me/channels' && method === 'POST') {
    requireBot(s, call);
    checkSchema('CreatePrivateChannelRequestSchema', body);
    return checkResponse('PrivateChannelResponseSchema', openDmChannel(s, String(body.recipient_id)));
  }
  match = method === 'POST' ? m(/^\/api\/v10\/interactions\/([0-9]+)\/([^/]+)\/callback$/) : null;
  if (match) {
    return interactionCallback(s, match[1] ?? '', match[2] ?? '', body);
  }
  match = method === 'PUT' ? m(/^\/api\/v10\/applications\/([0-9]+)\/guilds\/([0-9]+)\/commands$/) : null;
  if (match) {
    requireBot(s, call);
    if (match[1] !== s.applicationId)
      throw new DiscordRefusal(403, { code: 50001, message: 'Missing Access' });
    if (!Array.isArray(call.body))
      throw new DiscordRefusal(400, { code: 50035, message: 'Invalid Form Body' });
    for (const command of call.body) checkSchema('ApplicationCommandUpdateRequestSchema', command);
    const registered = (call.body as Record<string, unknown>[]).map((c) => ({
      ...c,
      id: s.newId(),
      application_id: s.applicationId,
      guild_id: match?.[2],
      version: s.newId(),
      type: 1,
      default_member_permissions: null,
    }));
    s.commands.set(match[2] ?? '', registered);
    return registered.map((c) => checkResponse('ApplicationCommandResponseSchema', c));
  }
  throw new DiscordRefusal(404, { code: 0, message: '404: Not Found' });
}

function listMessages(s: DiscordStandIn, channelId: string, query: URLSearchParams): unknown[] {
  const all = s.messages.get(channelId);
  if (all === undefined) throw new DiscordRefusal(404, { code: 10003, message: 'Unknown Channel' });
  const limit = Number(query.get('limit') ?? 50);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new DiscordRefusal(400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: { limit: 'Must be between 1 and 100' },
    });
  const after = query.get('after');
  // Discord: the `limit` messages right after `after`, newest first; without it, the newest.
  const chosen =
    after === null ? all.slice(-limit) : all.filter((msg) => BigInt(msg.id) > BigInt(after)).slice(0, limit);
  return chosen.reverse().map((msg) => checkResponse('MessageResponseSchema', s.wire(msg)));
}

export function startThread(s: DiscordStandIn, channelId: string, messageId: string, name: string): unknown {
  const parent = s.channel(channelId);
  if (!(s.messages.get(channelId) ?? []).some((msg) => msg.id === messageId))
    throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
  if (s.channels.has(messageId))
    throw new DiscordRefusal(400, {
      code: 160004,
      message: 'A thread has already been created for this message',
    });
  const thread: Channel = { id: messageId, type: 11, guild_id: s.guildId, parent_id: parent.id, name };
  s.channels.set(thread.id, thread);
  s.messages.set(thread.id, []);
  const object = threadObject(s, thread);
  s.gateway.dispatch('THREAD_CREATE', { ...object, newly_created: true });
  return checkResponse('ThreadResponseSchema', object);
}

function webhookFor(s: DiscordStandIn, id: string, token: string): Webhook {
  const webhook = s.webhooks.get(id);
  if (webhook === undefined) throw new DiscordRefusal(404, { code: 10015, message: 'Unknown Webhook' });
  if (webhook.token !== token)
    throw new DiscordRefusal(401, { code: 50027, message: 'Invalid Webhook Token' });
  return webhook;
}

/** The channel a webhook call goes to: its own, or `thread_id`, a thread of it. */
function webhookTarget(s: DiscordStandIn, webhook: Webhook, query: URLSearchParams): string {
  const threadId = query.get('thread_id');
  if (threadId === null) return webhook.channel_id;
  const thread = s.channels.get(threadId);
  if (thread === undefined || thread.parent_id !== webhook.channel_id)
    throw new DiscordRefusal(400, { code: 10003, message: 'Unknown Channel' });
  return threadId;
}

function executeWebhook(
  s: DiscordStandIn,
  id: string,
  token: string,
  body: MessageBody,
  query: URLSearchParams,
): unknown {
  const interaction = s.interactionByToken(id, token);
  if (interaction !== undefined) {
    checkSchema('IncomingWebhookInteractionRequestSchema', body);
    checkMessageLimits(body, { create: true });
    const message = s.storeMessage(
      interaction.channelId,
      s.userObject(s.bot),
      body,
      { application_id: s.applicationId },
      false,
    );
    interaction.followUps.push(message);
    return checkResponse('MessageResponseSchema', s.wire(message));
  }
  const webhook = webhookFor(s, id, token);
  checkSchema('IncomingWebhookRequestPartialSchema', body);
  checkMessageLimits(body, { create: true });
  checkWebhookName(body.username, 'username');
  const channelId = webhookTarget(s, webhook, query);
  const author = {
    id: webhook.id,
    username: body.username ?? webhook.name,
    bot: true,
    discriminator: '0000',
    global_name: null,
    avatar: null,
    public_flags: 0,
    flags: 0,
    primary_guild: null,
  };
  const message = s.storeMessage(channelId, author, body, {
    webhook_id: webhook.id,
    application_id: s.applicationId,
    ...(typeof (body as { avatar_url?: string }).avatar_url === 'string'
      ? { avatar_url: (body as { avatar_url: string }).avatar_url }
      : {}),
  });
  // The gateway shows the webhook's post to the bot, as Discord does (P10 must ignore it).
  s.gateway.dispatch('MESSAGE_CREATE', webhookMessageCreate(s, message));
  return query.get('wait') === 'true' ? checkResponse('MessageResponseSchema', s.wire(message)) : undefined;
}

function editWebhookMessage(
  s: DiscordStandIn,
  id: string,
  token: string,
  messageId: string,
  body: MessageBody,
  query: URLSearchParams,
): unknown {
  const interaction = s.interactionByToken(id, token);
  if (interaction !== undefined) {
    checkSchema('IncomingWebhookUpdateForInteractionCallbackRequestPartialSchema', body);
    checkMessageLimits(body, { create: false });
    if (messageId !== '@original') throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
    if (interaction.original === null) {
      interaction.original = s.storeMessage(
        interaction.channelId,
        s.userObject(s.bot),
        body,
        { application_id: s.applicationId, type: 20 } as Partial<StoredMessage>,
        true,
      );
    } else applyEdit(s, interaction.original, body);
    return checkResponse('MessageResponseSchema', s.wire(interaction.original));
  }
  const webhook = webhookFor(s, id, token);
  checkSchema('IncomingWebhookUpdateRequestPartialSchema', body);
  checkMessageLimits(body, { create: false });
  const channelId = webhookTarget(s, webhook, query);
  const message = (s.messages.get(channelId) ?? []).find(
    (msg) => msg.id === messageId && msg.webhook_id === webhook.id,
  );
  if (message === undefined) throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
  applyEdit(s, message, body);
  return checkResponse('MessageResponseSchema', s.wire(message));
}

function applyEdit(s: DiscordStandIn, message: StoredMessage, body: MessageBody): void {
  if (body.content !== undefined) message.content = body.content;
  if (body.embeds !== undefined) message.embeds = body.embeds.map(asStored);
  if (body.components !== undefined) message.components = numbered(body.components);
  message.edited_timestamp = new Date().toISOString();
  message.pinged = pingsOf({ ...body, content: message.content }, s.roles);
}

export function openDmChannel(s: DiscordStandIn, userId: string): unknown {
  let id = s.dmChannels.get(userId);
  if (id === undefined) {
    id = s.newId();
    s.dmChannels.set(userId, id);
    s.channels.set(id, {
      id,
      type: 1,
      recipients: [{ id: userId, username: `user${userId.slice(-4)}` }],
    });
    s.messages.set(id, []);
  }
  const channel = s.channel(id);
  return {
    id,
    type: 1,
    last_message_id: null,
    flags: 0,
    recipients: (channel.recipients ?? []).map((u) => s.userObject(u)),
  };
}

function interactionCallback(
  s: DiscordStandIn,
  id: string,
  token: string,
  body: Record<string, unknown>,
): unknown {
  const interaction = s.interactions.get(id);
  if (interaction === undefined || interaction.token !== token)
    throw new DiscordRefusal(404, { code: 10062, message: 'Unknown interaction' });
  // Discord's 3 seconds to answer.
  if (Date.now() - interaction.createdAt > 3000)
    throw new DiscordRefusal(404, { code: 10062, message: 'Unknown interaction' });
  if (interaction.responded)
    throw new DiscordRefusal(400, { code: 40060, message: 'Interaction has already been acknowledged.' });
  const type = Number(body.type);
  if (type === 4 || type === 5) checkSchema('CreateMessageInteractionCallbackRequestSchema', body);
  else if (type === 6 || type === 7) checkSchema('UpdateMessageInteractionCallbackRequestSchema', body);
  else if (type === 8) checkSchema('ApplicationCommandAutocompleteCallbackRequestSchema', body);
  else
    throw new DiscordRefusal(400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: { type: 'unknown' },
    });
  const data = body.data as Record<string, unknown> | undefined;
  if (data !== undefined && type !== 8) checkMessageLimits(data as MessageBody, { create: false });
  if (type === 8 && Array.isArray(data?.choices) && data.choices.length > 25)
    throw new DiscordRefusal(400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: { 'data.choices': 'Must be 25 or fewer in length.' },
    });
  interaction.responded = true;
  interaction.callbacks.push({ type, ...(data === undefined ? {} : { data }) });
  return undefined;
}

// ----- state and payloads -----
