import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordCdn } from './discord-cdn';
import { DiscordGateway } from './discord-gateway';
import { GUILD_MEMBERS_FLAGS, GUILD_MEMBERS_INTENT, GuildMembers } from './discord-guild-members';
import { guildCreate, interactionCreate, personMessageCreate, ready } from './discord-payloads';
import { openDmChannel, route, startThread } from './discord-rest';
import { asStored, DiscordRefusal, type MessageBody, numbered, pingsOf } from './discord-rules';

const DISCORD_EPOCH = 1_420_070_400_000n;
export const BOT_TOKEN = 'stand-in.bot.token';

export interface StandInUser {
  id: string;
  username: string;
  bot?: boolean;
}

export interface Channel {
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
  attachments: Record<string, unknown>[];
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

export interface Webhook {
  id: string;
  token: string;
  channel_id: string;
  guild_id: string;
  application_id: string;
  name: string;
}

export interface Interaction {
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
  /** P24: server roles and who holds them (GUILD_CREATE, members of messages and interactions, updates). */
  readonly members = new GuildMembers(this);
  /** The role Discord creates and manages for the bot when it joins a server (P12). */
  readonly botRoleId: string;
  token = BOT_TOKEN;
  /**
   * `GET /applications/@me`'s flags: the message-content intent (1 << 19) is on unless a test
   * turns it off; the members intent (1 << 15) too (P24).
   */
  applicationFlags = (1 << 19) | (1 << 15);
  private nextId: bigint;
  private readonly server: Server;
  private gatewayServer: DiscordGateway | null = null;
  private readonly rateLimits: { route: RegExp; retryAfter: number }[] = [];
  private readonly failures: { route: RegExp; status: number }[] = [];
  readonly dmChannels = new Map<string, string>();
  /** P13: attachments people sent, served at their signed CDN links. */
  readonly cdn = new DiscordCdn(() => `http://127.0.0.1:${this.port}`);

  constructor() {
    this.nextId = (BigInt(Date.now()) - DISCORD_EPOCH) << 22n;
    this.guildId = this.newId();
    this.applicationId = this.newId();
    this.bot = { id: this.applicationId, username: 'Summon', bot: true };
    this.botRoleId = this.newId();
    this.server = createServer((req, res) => {
      if (this.cdn.handle(req, res)) return;
      void this.serve(req, res);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.gatewayServer = new DiscordGateway(this.server, {
      token: () => this.token,
      ready: (sessionId) => ready(this, sessionId),
      onIdentified: (dispatch) => dispatch('GUILD_CREATE', guildCreate(this)),
      // P24: Discord closes a session (4014) asking for GUILD_MEMBERS without the app's flag.
      disallowed: (intents) =>
        (intents & GUILD_MEMBERS_INTENT) !== 0 && (this.applicationFlags & GUILD_MEMBERS_FLAGS) === 0,
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

  /** The next `count` calls whose `METHOD path` matches fail with `status` (a Discord outage: 502, 503). */
  failNext(route: RegExp, status = 502, count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push({ route, status });
  }

  /** A person writes in a channel or thread; dispatched as MESSAGE_CREATE. */
  say(author: StandInUser, channelId: string, content: string): StoredMessage {
    const channel = this.channel(channelId);
    const message = this.storeMessage(channelId, this.userObject(author), { content }, {});
    message.mentions = [...content.matchAll(/<@!?([0-9]+)>/g)].flatMap((m) =>
      m[1] === this.bot.id ? [this.userObject(this.bot)] : [],
    );
    // Discord lists the roles a message mentions by id; the client resolves them in the guild.
    message.mention_roles = [...content.matchAll(/<@&([0-9]+)>/g)].flatMap((m) =>
      m[1] !== undefined && (m[1] === this.botRoleId || this.roles.includes(m[1])) ? [m[1]] : [],
    );
    this.dispatchMessage(message, channel, author);
    return message;
  }

  /** P13: a person writes with files attached; dispatched as MESSAGE_CREATE with their CDN links. */
  sayWithFiles(
    author: StandInUser,
    channelId: string,
    content: string,
    files: { filename: string; contentType: string; bytes: Buffer; size?: number }[],
    options: { linkIssuedAt?: number } = {},
  ): StoredMessage {
    const channel = this.channel(channelId);
    const message = this.storeMessage(channelId, this.userObject(author), { content }, {});
    message.attachments = files.map((file) =>
      this.cdn.attach(channelId, this.newId(), file, options.linkIssuedAt),
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
    startThread(this, message.channel_id, message.id, name);
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
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      interactionCreate(this, 'interaction-button', interaction, user, {
        type: 3,
        data: { custom_id: customId, component_type: 2 },
        message: this.wire(message),
      }),
    );
    return interaction;
  }

  /**
   * P17: a command Discord still shows a person after the app stopped registering it (clients
   * cache command lists), with an id the stand-in never issued.
   */
  staleCommand(user: StandInUser, channelId: string, name: string): Interaction {
    const interaction = this.newInteraction(channelId);
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      interactionCreate(this, 'interaction-command', interaction, user, {
        type: 2,
        data: { id: this.newId(), name, type: 1, guild_id: this.guildId, options: [] },
      }),
    );
    return interaction;
  }

  /** P17: a person submits a form (modal, type 5) with this custom_id. */
  submitForm(user: StandInUser, channelId: string, customId: string): Interaction {
    const interaction = this.newInteraction(channelId);
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      interactionCreate(this, 'interaction-button', interaction, user, {
        type: 5,
        data: {
          custom_id: customId,
          components: [{ type: 1, components: [{ type: 4, custom_id: 'reason', value: 'because' }] }],
        },
      }),
    );
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
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      interactionCreate(
        this,
        kind === 'run' ? 'interaction-command' : 'interaction-autocomplete',
        interaction,
        user,
        {
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
        },
      ),
    );
    return interaction;
  }

  /**
   * A person runs `/summon <subcommand> [options]`, as Discord's client sends it: only what the
   * registered command allows (a known subcommand, its required options, one of its choices).
   */
  summon(
    user: StandInUser,
    channelId: string,
    subcommand: string,
    values: Record<string, string> = {},
  ): Interaction {
    type Option = {
      type: number;
      name: string;
      required?: boolean;
      choices?: { value: string }[];
      options?: Option[];
    };
    const registered = (this.commands.get(this.guildId) ?? []) as {
      id?: string;
      name: string;
      options?: Option[];
    }[];
    const summon = registered.find((c) => c.name === 'summon');
    if (summon === undefined) throw new Error('the summon command is not registered');
    const sub = (summon.options ?? []).find((o) => o.type === 1 && o.name === subcommand);
    if (sub === undefined) throw new Error(`/summon has no subcommand ${subcommand}`);
    const allowed = sub.options ?? [];
    for (const name of Object.keys(values))
      if (!allowed.some((o) => o.name === name))
        throw new Error(`/summon ${subcommand} has no option ${name}`);
    for (const option of allowed) {
      const value = values[option.name];
      if (option.required && value === undefined)
        throw new Error(`/summon ${subcommand} needs ${option.name}`);
      if (value !== undefined && option.choices && !option.choices.some((c) => c.value === value))
        throw new Error(`/summon ${subcommand} ${option.name} must be one of its choices`);
    }
    const interaction = this.newInteraction(channelId);
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      interactionCreate(this, 'interaction-command', interaction, user, {
        type: 2,
        data: {
          id: summon.id,
          name: 'summon',
          type: 1,
          guild_id: this.guildId,
          options: [
            {
              type: 1,
              name: subcommand,
              options: Object.entries(values).map(([name, value]) => ({ type: 3, name, value })),
            },
          ],
        },
      }),
    );
    return interaction;
  }

  /** The direct-message channel between the bot and a user (opened if need be). */
  dmChannelWith(userId: string): string {
    openDmChannel(this, userId);
    return this.dmChannels.get(userId) ?? '';
  }

  /** Direct messages a user received, oldest first. */
  directMessagesTo(userId: string): StoredMessage[] {
    const channel = this.dmChannels.get(userId);
    return channel === undefined ? [] : this.messagesIn(channel);
  }

  /** The 4xx answers the stand-in gave, with Discord's error bodies. */
  get refusals(): RecordedCall[] {
    return this.calls.filter((c) => c.status >= 400 && c.status < 500 && c.status !== 429);
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
        // Discord's 429: the body's float seconds, Retry-After whole seconds, the bucket's headers.
        send(
          429,
          { message: 'You are being rate limited.', retry_after: retryAfter, global: false, code: 0 },
          {
            'retry-after': String(Math.ceil(retryAfter)),
            'x-ratelimit-limit': '5',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String((Date.now() / 1000 + retryAfter).toFixed(3)),
            'x-ratelimit-reset-after': retryAfter.toFixed(3),
            'x-ratelimit-bucket': 'stand-in-webhook-bucket',
            'x-ratelimit-scope': 'user',
          },
        );
        return;
      }
      const failing = this.failures.findIndex((f) => f.route.test(`${call.method} ${call.path}`));
      if (failing >= 0) {
        const status = this.failures.splice(failing, 1)[0]?.status ?? 502;
        send(status, { message: 'Bad Gateway', code: 0 });
        return;
      }
      const result = route(this, call, url.searchParams);
      if (result === undefined) send(204);
      else send(200, result);
    } catch (error) {
      call.error = error instanceof DiscordRefusal ? error.body : String(error);
      if (error instanceof DiscordRefusal) send(error.status, error.body);
      else send(500, { code: 0, message: String(error) });
    }
  }

  channel(id: string): Channel {
    const channel = this.channels.get(id);
    if (channel === undefined) throw new DiscordRefusal(404, { code: 10003, message: 'Unknown Channel' });
    return channel;
  }

  storeMessage(
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

  dispatchMessage(message: StoredMessage, channel: Channel, author: StandInUser): void {
    this.gateway.dispatch('MESSAGE_CREATE', personMessageCreate(this, message, channel, author));
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

  newInteraction(channelId: string): Interaction {
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

  interactionByToken(applicationId: string, token: string): Interaction | undefined {
    if (applicationId !== this.applicationId) return undefined;
    return [...this.interactions.values()].find((i) => i.token === token);
  }
}
