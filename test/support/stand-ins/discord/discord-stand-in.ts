import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordGateway } from './discord-gateway';
import {
  checkMessageLimits,
  checkResponse,
  checkSchema,
  checkWebhookName,
  DiscordRefusal,
  type MessageBody,
  pingsOf,
} from './discord-rules';

const DISCORD_EPOCH = 1_420_070_400_000n;
export const BOT_TOKEN = 'stand-in.bot.token';

export interface StandInUser {
  id: string;
  username: string;
  bot?: boolean;
}

interface Channel {
  id: string;
  type: number;
  guild_id?: string;
  parent_id?: string | null;
  name?: string;
  recipients?: StandInUser[];
}

/** A message as the stand-in keeps it: Discord's message object plus who it really pinged. */
export interface StoredMessage {
  id: string;
  channel_id: string;
  author: StandInUser & {
    discriminator: string;
    global_name: string | null;
    avatar: null;
    public_flags: number;
    flags: number;
    primary_guild: null;
  };
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: false;
  mention_everyone: boolean;
  mentions: unknown[];
  mention_roles: string[];
  attachments: [];
  embeds: NonNullable<MessageBody['embeds']>;
  components: NonNullable<MessageBody['components']>;
  pinned: false;
  type: number;
  flags: number;
  webhook_id?: string;
  application_id?: string;
  /** Not Discord's: who the post pinged (users) and whether it pinged everyone. */
  pinged: { everyone: boolean; users: string[]; roles: string[] };
  /** Not Discord's: the webhook persona's avatar. */
  avatar_url?: string;
}

interface Webhook {
  id: string;
  token: string;
  channel_id: string;
  guild_id: string;
  application_id: string;
  name: string;
}

interface Interaction {
  id: string;
  token: string;
  createdAt: number;
  channelId: string;
  responded: boolean;
  callbacks: { type: number; data?: Record<string, unknown> }[];
  original: StoredMessage | null;
  followUps: StoredMessage[];
}

/** One REST call as the stand-in saw it. */
export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number;
  authorization: string | undefined;
  /** What the stand-in answered when it refused or failed. */
  error?: unknown;
}

/**
 * A local Discord: REST (validated against Discord's OpenAPI description and its limits, with
 * Discord's error shape and, on demand, rate limits) and a gateway, around one guild with one
 * application. Every call is recorded. Only binds 127.0.0.1.
 */
export class DiscordStandIn {
  readonly calls: RecordedCall[] = [];
  readonly guildId: string;
  readonly applicationId: string;
  readonly bot: StandInUser;
  readonly channels = new Map<string, Channel>();
  readonly messages = new Map<string, StoredMessage[]>();
  readonly webhooks = new Map<string, Webhook>();
  readonly interactions = new Map<string, Interaction>();
  readonly commands = new Map<string, unknown[]>();
  readonly roles: string[] = [];
  token = BOT_TOKEN;
  private nextId: bigint;
  private readonly server: Server;
  private gatewayServer: DiscordGateway | null = null;
  private readonly rateLimits: { route: RegExp; retryAfter: number }[] = [];
  private readonly dmChannels = new Map<string, string>();

  constructor() {
    this.nextId = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    this.guildId = this.newId();
    this.applicationId = this.newId();
    this.bot = { id: this.applicationId, username: 'Summon', bot: true };
    this.server = createServer((req, res) => void this.serve(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.gatewayServer = new DiscordGateway(this.server, {
      token: () => this.token,
      ready: (sessionId) => ({
        v: 10,
        user: { ...this.userObject(this.bot), verified: true, flags: 0 },
        guilds: [{ id: this.guildId, unavailable: true }],
        session_id: sessionId,
        resume_gateway_url: this.wsUrl,
        shard: [0, 1],
        application: { id: this.applicationId, flags: 0 },
      }),
      onIdentified: (dispatch) => dispatch('GUILD_CREATE', this.guildCreate()),
    });
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }
  /** DISCORD_API_URL: discord.js appends `/v10/...`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }
  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }
  get gateway(): DiscordGateway {
    if (this.gatewayServer === null) throw new Error('start the stand-in first');
    return this.gatewayServer;
  }

  newId(): string {
    this.nextId += 1n << 12n;
    return this.nextId.toString();
  }

  addTextChannel(name: string): string {
    const id = this.newId();
    this.channels.set(id, { id, type: 0, guild_id: this.guildId, parent_id: null, name });
    this.messages.set(id, []);
    return id;
  }

  /** The next call whose `METHOD path` matches answers 429 with `retry_after` (seconds). */
  rateLimitNext(route: RegExp, retryAfter = 0.2): void {
    this.rateLimits.push({ route, retryAfter });
  }

  /** A person writes in a channel or thread; dispatched as MESSAGE_CREATE. */
  say(author: StandInUser, channelId: string, content: string): StoredMessage {
    const channel = this.channel(channelId);
    const message = this.storeMessage(channelId, this.userObject(author), { content }, {});
    message.mentions = [...content.matchAll(/<@!?([0-9]+)>/g)].flatMap((m) =>
      m[1] === this.bot.id ? [this.userObject(this.bot)] : [],
    );
    this.dispatchMessage(message, channel, author);
    return message;
  }

  /** A message that is in the channel's history but was never dispatched (said before the bot joined). */
  seed(author: StandInUser, channelId: string, content: string): StoredMessage {
    return this.storeMessage(channelId, this.userObject(author), { content }, {});
  }

  /** A person starts a thread from a message (THREAD_CREATE is dispatched). */
  startThreadAs(message: StoredMessage, name: string): string {
    this.startThread(message.channel_id, message.id, name);
    return message.id;
  }

  /** Every direct message sent, with its recipient. */
  directMessages(): { to: string; message: StoredMessage }[] {
    return [...this.dmChannels.entries()].flatMap(([to, channel]) =>
      this.messagesIn(channel).map((message) => ({ to, message })),
    );
  }

  /** Dispatches a stored message again (a duplicate delivery). */
  redeliver(message: StoredMessage, author: StandInUser): void {
    this.dispatchMessage(message, this.channel(message.channel_id), author);
  }

  /** Messages of a channel or thread, oldest first. */
  messagesIn(channelId: string): StoredMessage[] {
    return [...(this.messages.get(channelId) ?? [])];
  }

  /** A person clicks a button of a message; returns the interaction to inspect. */
  click(user: StandInUser, message: StoredMessage, customId: string): Interaction {
    const interaction = this.newInteraction(message.channel_id);
    this.gateway.dispatch('INTERACTION_CREATE', {
      ...this.interactionBase(interaction, user),
      type: 3,
      data: { custom_id: customId, component_type: 2 },
      message: this.wire(message),
    });
    return interaction;
  }

  /** A person runs a slash command (type 2) or types in one of its options (autocomplete, type 4). */
  command(
    user: StandInUser,
    channelId: string,
    options: { name: string; value: string; focused?: boolean }[],
    kind: 'run' | 'autocomplete' = 'run',
  ): Interaction {
    const interaction = this.newInteraction(channelId);
    const registered = (this.commands.get(this.guildId) ?? []) as { id?: string; name: string }[];
    const ask = registered.find((c) => c.name === 'ask');
    if (ask === undefined) throw new Error('the ask command is not registered');
    this.gateway.dispatch('INTERACTION_CREATE', {
      ...this.interactionBase(interaction, user),
      type: kind === 'run' ? 2 : 4,
      data: {
        id: ask.id,
        name: 'ask',
        type: 1,
        guild_id: this.guildId,
        options: options.map((o) => ({
          type: 3,
          name: o.name,
          value: o.value,
          ...(o.focused ? { focused: true } : {}),
        })),
      },
    });
    return interaction;
  }

  /** Direct messages a user received, oldest first. */
  directMessagesTo(userId: string): StoredMessage[] {
    const channel = this.dmChannels.get(userId);
    return channel === undefined ? [] : this.messagesIn(channel);
  }

  /** The 4xx answers the stand-in gave, with Discord's error bodies. */
  get refusals(): RecordedCall[] {
    return this.calls.filter((c) => c.status >= 400 && c.status !== 429);
  }

  async close(): Promise<void> {
    await this.gatewayServer?.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ----- REST -----

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const call: RecordedCall = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      status: 0,
      authorization: req.headers.authorization,
    };
    this.calls.push(call);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      call.status = status;
      // A 204 must carry no JSON content type (@discordjs/rest would parse the empty body).
      res.writeHead(
        status,
        body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      );
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    try {
      call.body = raw === '' ? undefined : JSON.parse(raw);
      const limited = this.rateLimits.findIndex((r) => r.route.test(`${call.method} ${call.path}`));
      if (limited >= 0) {
        const retryAfter = this.rateLimits.splice(limited, 1)[0]?.retryAfter ?? 0.2;
        send(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global: false, code: 0 },
          { 'retry-after': String(Math.ceil(retryAfter)), 'x-ratelimit-scope': 'user' },
        );
        return;
      }
      const result = this.route(call, url.searchParams);
      if (result === undefined) send(204);
      else send(200, result);
    } catch (error) {
      call.error = error instanceof DiscordRefusal ? error.body : String(error);
      if (error instanceof DiscordRefusal) send(error.status, error.body);
      else send(500, { code: 0, message: String(error) });
    }
  }

  private requireBot(call: RecordedCall): void {
    if (call.authorization !== `Bot ${this.token}`)
      throw new DiscordRefusal(401, { code: 0, message: '401: Unauthorized' });
  }

  private route(call: RecordedCall, query: URLSearchParams): unknown {
    const { method, path } = call;
    const body = (call.body ?? {}) as Record<string, unknown>;
    const m = (pattern: RegExp) => pattern.exec(path);
    let match: RegExpExecArray | null;
    if (method === 'GET' && path === '/api/v10/gateway/bot') {
      this.requireBot(call);
      return checkResponse('GatewayBotResponseSchema', {
        url: this.wsUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 86_400_000, max_concurrency: 1 },
      });
    }
    match = method === 'GET' ? m(/^\/api\/v10\/channels\/([0-9]+)$/) : null;
    if (match) {
      this.requireBot(call);
      const channel = this.channel(match[1] ?? '');
      return channel.type === 11
        ? checkResponse('ThreadResponseSchema', this.threadObject(channel))
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
      this.requireBot(call);
      const channelId = match[1] ?? '';
      if (method === 'GET') return this.listMessages(channelId, query);
      if (method === 'POST') {
        checkSchema('MessageCreateRequestSchema', body);
        checkMessageLimits(body as MessageBody, { create: true });
        const message = this.storeMessage(channelId, this.userObject(this.bot), body as MessageBody, {});
        return checkResponse('MessageResponseSchema', this.wire(message));
      }
    }
    match = method === 'POST' ? m(/^\/api\/v10\/channels\/([0-9]+)\/messages\/([0-9]+)\/threads$/) : null;
    if (match) {
      this.requireBot(call);
      checkSchema('CreateTextThreadWithMessageRequestSchema', body);
      return this.startThread(match[1] ?? '', match[2] ?? '', String(body.name));
    }
    match = m(/^\/api\/v10\/channels\/([0-9]+)\/webhooks$/);
    if (match) {
      this.requireBot(call);
      const channel = this.channel(match[1] ?? '');
      if (method === 'GET')
        return [...this.webhooks.values()]
          .filter((w) => w.channel_id === channel.id)
          .map((w) => checkResponse('GuildIncomingWebhookResponseSchema', this.webhookObject(w)));
      if (method === 'POST') {
        checkWebhookName(body.name as string | undefined, 'name');
        if (body.name === undefined)
          throw new DiscordRefusal(400, {
            code: 50035,
            message: 'Invalid Form Body',
            errors: { name: 'required' },
          });
        const webhook: Webhook = {
          id: this.newId(),
          token: `wh-token-${this.newId()}`,
          channel_id: channel.id,
          guild_id: this.guildId,
          application_id: this.applicationId,
          name: String(body.name),
        };
        this.webhooks.set(webhook.id, webhook);
        return checkResponse('GuildIncomingWebhookResponseSchema', this.webhookObject(webhook));
      }
    }
    match = method === 'POST' ? m(/^\/api\/v10\/webhooks\/([0-9]+)\/([^/]+)$/) : null;
    if (match) {
      return this.executeWebhook(match[1] ?? '', match[2] ?? '', body as MessageBody, query);
    }
    match =
      method === 'PATCH'
        ? m(/^\/api\/v10\/webhooks\/([0-9]+)\/([^/]+)\/messages\/([0-9]+|@original)$/)
        : null;
    if (match) {
      return this.editWebhookMessage(
        match[1] ?? '',
        match[2] ?? '',
        match[3] ?? '',
        body as MessageBody,
        query,
      );
    }
    if (path === '/api/v10/users/@me/channels' && method === 'POST') {
      this.requireBot(call);
      checkSchema('CreatePrivateChannelRequestSchema', body);
      return checkResponse('PrivateChannelResponseSchema', this.dmChannel(String(body.recipient_id)));
    }
    match = method === 'POST' ? m(/^\/api\/v10\/interactions\/([0-9]+)\/([^/]+)\/callback$/) : null;
    if (match) {
      return this.interactionCallback(match[1] ?? '', match[2] ?? '', body);
    }
    match = method === 'PUT' ? m(/^\/api\/v10\/applications\/([0-9]+)\/guilds\/([0-9]+)\/commands$/) : null;
    if (match) {
      this.requireBot(call);
      if (match[1] !== this.applicationId)
        throw new DiscordRefusal(403, { code: 50001, message: 'Missing Access' });
      if (!Array.isArray(call.body))
        throw new DiscordRefusal(400, { code: 50035, message: 'Invalid Form Body' });
      for (const command of call.body) checkSchema('ApplicationCommandUpdateRequestSchema', command);
      const registered = (call.body as Record<string, unknown>[]).map((c) => ({
        ...c,
        id: this.newId(),
        application_id: this.applicationId,
        guild_id: match?.[2],
        version: this.newId(),
        type: 1,
        default_member_permissions: null,
      }));
      this.commands.set(match[2] ?? '', registered);
      return registered.map((c) => checkResponse('ApplicationCommandResponseSchema', c));
    }
    throw new DiscordRefusal(404, { code: 0, message: '404: Not Found' });
  }

  private listMessages(channelId: string, query: URLSearchParams): unknown[] {
    const all = this.messages.get(channelId);
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
      after === null
        ? all.slice(-limit)
        : all.filter((msg) => BigInt(msg.id) > BigInt(after)).slice(0, limit);
    return chosen.reverse().map((msg) => checkResponse('MessageResponseSchema', this.wire(msg)));
  }

  private startThread(channelId: string, messageId: string, name: string): unknown {
    const parent = this.channel(channelId);
    if (!(this.messages.get(channelId) ?? []).some((msg) => msg.id === messageId))
      throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
    if (this.channels.has(messageId))
      throw new DiscordRefusal(400, {
        code: 160004,
        message: 'A thread has already been created for this message',
      });
    const thread: Channel = { id: messageId, type: 11, guild_id: this.guildId, parent_id: parent.id, name };
    this.channels.set(thread.id, thread);
    this.messages.set(thread.id, []);
    const object = this.threadObject(thread);
    this.gateway.dispatch('THREAD_CREATE', { ...object, newly_created: true });
    return checkResponse('ThreadResponseSchema', object);
  }

  private webhookFor(id: string, token: string): Webhook {
    const webhook = this.webhooks.get(id);
    if (webhook === undefined) throw new DiscordRefusal(404, { code: 10015, message: 'Unknown Webhook' });
    if (webhook.token !== token)
      throw new DiscordRefusal(401, { code: 50027, message: 'Invalid Webhook Token' });
    return webhook;
  }

  /** The channel a webhook call goes to: its own, or `thread_id`, a thread of it. */
  private webhookTarget(webhook: Webhook, query: URLSearchParams): string {
    const threadId = query.get('thread_id');
    if (threadId === null) return webhook.channel_id;
    const thread = this.channels.get(threadId);
    if (thread === undefined || thread.parent_id !== webhook.channel_id)
      throw new DiscordRefusal(400, { code: 10003, message: 'Unknown Channel' });
    return threadId;
  }

  private executeWebhook(id: string, token: string, body: MessageBody, query: URLSearchParams): unknown {
    const interaction = this.interactionByToken(id, token);
    if (interaction !== undefined) {
      checkSchema('IncomingWebhookInteractionRequestSchema', body);
      checkMessageLimits(body, { create: true });
      const message = this.storeMessage(
        interaction.channelId,
        this.userObject(this.bot),
        body,
        { application_id: this.applicationId },
        false,
      );
      interaction.followUps.push(message);
      return checkResponse('MessageResponseSchema', this.wire(message));
    }
    const webhook = this.webhookFor(id, token);
    checkSchema('IncomingWebhookRequestPartialSchema', body);
    checkMessageLimits(body, { create: true });
    checkWebhookName(body.username, 'username');
    const channelId = this.webhookTarget(webhook, query);
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
    const message = this.storeMessage(channelId, author, body, {
      webhook_id: webhook.id,
      application_id: this.applicationId,
      ...(typeof (body as { avatar_url?: string }).avatar_url === 'string'
        ? { avatar_url: (body as { avatar_url: string }).avatar_url }
        : {}),
    });
    // The gateway shows the webhook's post to the bot, as Discord does (P10 must ignore it).
    this.gateway.dispatch('MESSAGE_CREATE', { ...this.wire(message), guild_id: this.guildId });
    return query.get('wait') === 'true'
      ? checkResponse('MessageResponseSchema', this.wire(message))
      : undefined;
  }

  private editWebhookMessage(
    id: string,
    token: string,
    messageId: string,
    body: MessageBody,
    query: URLSearchParams,
  ): unknown {
    const interaction = this.interactionByToken(id, token);
    if (interaction !== undefined) {
      checkSchema('IncomingWebhookUpdateForInteractionCallbackRequestPartialSchema', body);
      checkMessageLimits(body, { create: false });
      if (messageId !== '@original')
        throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
      if (interaction.original === null) {
        interaction.original = this.storeMessage(
          interaction.channelId,
          this.userObject(this.bot),
          body,
          { application_id: this.applicationId, type: 20 } as Partial<StoredMessage>,
          true,
        );
      } else this.applyEdit(interaction.original, body);
      return checkResponse('MessageResponseSchema', this.wire(interaction.original));
    }
    const webhook = this.webhookFor(id, token);
    checkSchema('IncomingWebhookUpdateRequestPartialSchema', body);
    checkMessageLimits(body, { create: false });
    const channelId = this.webhookTarget(webhook, query);
    const message = (this.messages.get(channelId) ?? []).find(
      (msg) => msg.id === messageId && msg.webhook_id === webhook.id,
    );
    if (message === undefined) throw new DiscordRefusal(404, { code: 10008, message: 'Unknown Message' });
    this.applyEdit(message, body);
    return checkResponse('MessageResponseSchema', this.wire(message));
  }

  private applyEdit(message: StoredMessage, body: MessageBody): void {
    if (body.content !== undefined) message.content = body.content;
    if (body.embeds !== undefined) message.embeds = body.embeds.map(asStored);
    if (body.components !== undefined) message.components = numbered(body.components);
    message.edited_timestamp = new Date().toISOString();
    message.pinged = pingsOf({ ...body, content: message.content }, this.roles);
  }

  private dmChannel(userId: string): unknown {
    let id = this.dmChannels.get(userId);
    if (id === undefined) {
      id = this.newId();
      this.dmChannels.set(userId, id);
      this.channels.set(id, {
        id,
        type: 1,
        recipients: [{ id: userId, username: `user${userId.slice(-4)}` }],
      });
      this.messages.set(id, []);
    }
    const channel = this.channel(id);
    return {
      id,
      type: 1,
      last_message_id: null,
      flags: 0,
      recipients: (channel.recipients ?? []).map((u) => this.userObject(u)),
    };
  }

  private interactionCallback(id: string, token: string, body: Record<string, unknown>): unknown {
    const interaction = this.interactions.get(id);
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

  private channel(id: string): Channel {
    const channel = this.channels.get(id);
    if (channel === undefined) throw new DiscordRefusal(404, { code: 10003, message: 'Unknown Channel' });
    return channel;
  }

  private storeMessage(
    channelId: string,
    author: StoredMessage['author'],
    body: MessageBody,
    extra: Partial<StoredMessage>,
    keep = true,
  ): StoredMessage {
    const list = this.messages.get(channelId);
    if (list === undefined) throw new DiscordRefusal(404, { code: 10003, message: 'Unknown Channel' });
    const message: StoredMessage = {
      id: this.newId(),
      channel_id: channelId,
      author,
      content: body.content ?? '',
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: (body.embeds ?? []).map(asStored),
      components: numbered(body.components ?? []),
      pinned: false,
      type: 0,
      flags: body.flags ?? 0,
      pinged: pingsOf(body, this.roles),
      ...extra,
    };
    message.mention_everyone = message.pinged.everyone;
    if (keep) list.push(message);
    return message;
  }

  /** The message as Discord sends it (without the stand-in's own fields). */
  wire(message: StoredMessage): Record<string, unknown> {
    const { pinged: _pinged, avatar_url: _avatar, ...wire } = message;
    return wire;
  }

  private dispatchMessage(message: StoredMessage, channel: Channel, author: StandInUser): void {
    this.gateway.dispatch('MESSAGE_CREATE', {
      ...this.wire(message),
      guild_id: channel.guild_id ?? this.guildId,
      member: {
        roles: [],
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
        nick: null,
      },
      author: this.userObject(author),
    });
  }

  userObject(user: StandInUser): StoredMessage['author'] {
    return {
      id: user.id,
      username: user.username,
      bot: user.bot ?? false,
      discriminator: '0',
      global_name: user.username,
      avatar: null,
      public_flags: 0,
      flags: 0,
      primary_guild: null,
    };
  }

  private webhookObject(webhook: Webhook): unknown {
    return {
      id: webhook.id,
      type: 1,
      guild_id: webhook.guild_id,
      channel_id: webhook.channel_id,
      name: webhook.name,
      avatar: null,
      token: webhook.token,
      application_id: webhook.application_id,
      user: this.userObject(this.bot),
    };
  }

  private threadObject(thread: Channel): Record<string, unknown> {
    return {
      id: thread.id,
      type: 11,
      guild_id: this.guildId,
      parent_id: thread.parent_id,
      name: thread.name,
      owner_id: this.bot.id,
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

  private guildCreate(): unknown {
    const channels = [...this.channels.values()].filter((c) => c.type === 0);
    const threads = [...this.channels.values()].filter((c) => c.type === 11);
    return {
      id: this.guildId,
      name: 'Stand-in Guild',
      icon: null,
      owner_id: this.bot.id,
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
          id: this.guildId,
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
      threads: threads.map((t) => this.threadObject(t)),
      members: [],
      presences: [],
      voice_states: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  private newInteraction(channelId: string): Interaction {
    const interaction: Interaction = {
      id: this.newId(),
      token: `interaction-token-${this.newId()}`,
      createdAt: Date.now(),
      channelId,
      responded: false,
      callbacks: [],
      original: null,
      followUps: [],
    };
    this.interactions.set(interaction.id, interaction);
    return interaction;
  }

  private interactionByToken(applicationId: string, token: string): Interaction | undefined {
    if (applicationId !== this.applicationId) return undefined;
    return [...this.interactions.values()].find((i) => i.token === token);
  }

  private interactionBase(interaction: Interaction, user: StandInUser): Record<string, unknown> {
    const channel = this.channel(interaction.channelId);
    return {
      id: interaction.id,
      application_id: this.applicationId,
      token: interaction.token,
      version: 1,
      guild_id: this.guildId,
      channel_id: channel.id,
      channel:
        channel.type === 11
          ? this.threadObject(channel)
          : { id: channel.id, type: channel.type, name: channel.name, guild_id: this.guildId },
      member: {
        user: this.userObject(user),
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
      authorizing_integration_owners: { 0: this.guildId },
      context: 0,
      attachment_size_limit: 10_485_760,
    };
  }
}

/** Discord stores an embed sent without a type as a `rich` one. */
const asStored = (embed: NonNullable<MessageBody['embeds']>[number]) => ({ type: 'rich', ...embed });

type Components = NonNullable<MessageBody['components']>;

/** Discord numbers a message's components 1, 2, 3… (depth first) when the request gave no ids. */
function numbered(rows: Components): Components {
  let next = 0;
  const number = (components: Components): Components =>
    components.map((component) => ({
      id: ++next,
      ...component,
      ...(component.components === undefined ? {} : { components: number(component.components) }),
    }));
  return number(rows);
}
