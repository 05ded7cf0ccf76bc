import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackAgentSessionsStandIn, type SlackSessionRules } from './slack-agent-sessions';
import { SlackFileHost } from './slack-file-host';
import { SlackMessageIndex } from './slack-message-index';
import { SlackOidcStandIn } from './slack-oidc';
import { type SlackStreamRules, SlackStreamsStandIn, type StreamState } from './slack-streams';
import { SlackUsergroups } from './slack-usergroups';

/** A message as the stand-in keeps it: what Slack would show in the channel. */
export interface StoredSlackMessage {
  channel: string;
  ts: string;
  threadTs: string | null;
  text: string;
  blocks: unknown[] | null;
  username: string | null;
  iconUrl: string | null;
  /** Every message the bot token posts carries the bot's id, as Slack's do. */
  botId: string;
  /** Who wrote it: a person's user id, or the bot user for the bot's posts. */
  user?: string;
  edits: number;
  /** P14: a message made by `chat.startStream`, with its tasks and chunks. */
  stream?: StreamState;
}

export interface RecordedCall {
  method: string;
  /** When the call arrived (ms since the epoch). */
  at: number;
  params: Record<string, unknown>;
  ok: boolean;
  error?: string;
  status: number;
}

type ScriptedFailure = { status: 429; retryAfterSeconds: number } | { status: 500 | 503 };

export interface SlackStandInOptions {
  token?: string;
  appToken?: string;
  /** Scopes the bot token has; without `chat:write.customize`, `username`/`icon_url` are refused. */
  scopes?: string[];
  /** Channels the bot is a member of; posting elsewhere is `not_in_channel`. */
  channels?: string[];
  teamId?: string;
  /**
   * Channels of the other teams the token serves (an org-wide install), by channel id: a
   * stream into one of them must name that team (`recipient_team_id`); every other channel is `teamId`'s.
   */
  channelTeams?: Record<string, string>;
  botUserId?: string;
  /** Where `apps.connections.open` sends Socket Mode clients. */
  socketUrl?: () => string;
  /** P14: whether `chat.startStream` is allowed, and the streams' age limit. */
  streaming?: SlackStreamRules;
  /** P15: whether `agents.sessions.setStatus` is allowed (off unless a test turns it on). */
  agentSessions?: SlackSessionRules;
}

const LIMITS = { text: 40_000, updateText: 4_000, blocks: 50, sectionText: 3_000 } as const;
const KNOWN = new Set([
  'auth.test',
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'chat.getPermalink',
  'apps.connections.open',
  'views.publish',
  'conversations.history',
  'conversations.replies',
  'chat.startStream',
  'chat.appendStream',
  'chat.stopStream',
  'agents.sessions.setStatus',
  'usergroups.list',
  'usergroups.users.list',
  'users.info',
]);

/**
 * A local Slack Web API that answers like Slack (`{ ok, … }` with HTTP 200, `{ ok: false, error }`
 * for refusals, 429 with `Retry-After`) and refuses what Slack refuses: unknown methods, a bad
 * token, a missing channel, text or blocks over the limits, `username` without the customize
 * scope, a channel the bot is not in, an update of a message that does not exist.
 */
export class SlackWebApiStandIn {
  readonly calls: RecordedCall[] = [];
  readonly messages: StoredSlackMessage[] = [];
  private readonly index = new SlackMessageIndex(this.messages);
  readonly ephemerals: { channel: string; user: string; text: string; threadTs: string | null }[] = [];
  readonly views: { userId: string; view: unknown }[] = [];
  /** P24: the team's user groups and people. */
  readonly usergroups = new SlackUsergroups();
  readonly token: string;
  readonly teamId: string;
  readonly botUserId: string;
  readonly botId = 'B0BOT0001';
  private readonly failures = new Map<string, ScriptedFailure[]>();
  private outage: { status: 500 | 503 } | null = null;
  /** P7: while set, calls are read and never answered; `up()` drops their connections. */
  private stalled: ServerResponse[] | null = null;
  private readonly server: Server;
  /** P13: the files people shared, served at their `url_private` (token checked). */
  readonly files: SlackFileHost;
  /** O5: "Sign in with Slack" (OpenID Connect) on the same host (`slack-oidc.ts`). */
  readonly oidc = new SlackOidcStandIn();
  private clock = 1_764_700_000;
  private counter = 0;
  private readonly streams: SlackStreamsStandIn;
  /** P15: the threads' agent sessions and their native Stop (`slack-agent-sessions.ts`). */
  readonly agentSessions: SlackAgentSessionsStandIn;
  revoked = false;

  constructor(private readonly options: SlackStandInOptions = {}) {
    this.token = options.token ?? 'xoxb-test-token';
    this.teamId = options.teamId ?? 'T0TEAM0001';
    this.botUserId = options.botUserId ?? 'U0BOT00001';
    this.files = new SlackFileHost({
      teamId: this.teamId,
      token: () => this.token,
      baseUrl: () => this.baseUrl(),
      scopes: () => options.scopes,
    });
    this.server = createServer((req, res) => {
      if (this.files.handle(req, res)) return;
      if (this.oidc.handle(req, res)) return;
      void this.handle(req, res);
    });
    this.streams = new SlackStreamsStandIn(
      {
        messages: this.messages,
        find: (channel, ts) => this.index.find(channel, ts),
        botId: this.botId,
        botUserId: this.botUserId,
        teamOf: (channel) => options.channelTeams?.[channel] ?? this.teamId,
        nextTs: () => this.nextTs(),
        checkChannel: (p) => {
          if (typeof p.channel !== 'string' || p.channel === '') return 'channel_not_found';
          if (options.channels !== undefined && !options.channels.includes(p.channel))
            return 'not_in_channel';
          return null;
        },
        customizeAllowed: () =>
          (options.scopes ?? ['chat:write', 'chat:write.customize']).includes('chat:write.customize'),
      },
      options.streaming,
    );
    this.agentSessions = new SlackAgentSessionsStandIn(
      {
        messages: this.messages,
        find: (channel, ts) => this.index.find(channel, ts),
        nextTs: () => this.nextTs(),
        checkChannel: (p) => (this.checkRead(p)?.error as string | null) ?? null,
        customizeAllowed: () =>
          (options.scopes ?? ['chat:write', 'chat:write.customize']).includes('chat:write.customize'),
      },
      options.agentSessions,
    );
  }

  /** P14: the messages streamed into a thread, oldest first. */
  streamedInThread(channel: string, threadTs: string): StoredSlackMessage[] {
    return this.messages.filter(
      (m) => m.channel === channel && m.threadTs === threadTs && m.stream !== undefined,
    );
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `${this.baseUrl()}/api/`;
  }

  baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get httpServer(): Server {
    return this.server;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** P7: until `up()`, every Web API call answers `status` (an outage of Slack's API). */
  down(status: 500 | 503 = 503): void {
    this.outage = { status };
  }

  up(): void {
    this.outage = null;
    for (const res of this.stalled ?? []) res.socket?.destroy();
    this.stalled = null;
  }

  /**
   * P7: until `up()`, every Web API call is taken and never answered (a Slack that accepts the
   * connection and hangs); nothing it asked is done, and `up()` drops those connections.
   */
  stall(): void {
    this.stalled = [];
  }

  /** How many calls of `method` were taken while stalled (never answered). */
  stalledCalls(method: string): number {
    return this.calls.filter((c) => c.method === method && c.error === 'stalled').length;
  }

  /** P7: until `listen(port)` again, connections are refused (the server stops listening); its port. */
  async refuseConnections(): Promise<number> {
    const { port } = this.server.address() as AddressInfo;
    await this.close();
    return port;
  }

  /** Listens again on the port `refuseConnections` closed. */
  async reopen(port: number): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  /** The next `count` calls of `method` fail as told (a 429 storm, a 5xx). */
  failNext(method: string, failure: ScriptedFailure, count = 1): void {
    const queue = this.failures.get(method) ?? [];
    for (let i = 0; i < count; i++) queue.push(failure);
    this.failures.set(method, queue);
  }

  okCalls(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method && c.ok);
  }

  /** The message at `channel` and `ts`, if Slack holds it. */
  messageAt(channel: unknown, ts: unknown): StoredSlackMessage | undefined {
    return this.index.find(channel, ts);
  }

  inThread(channel: string, threadTs: string): StoredSlackMessage[] {
    return this.messages.filter(
      (m) => m.channel === channel && (m.ts === threadTs || m.threadTs === threadTs),
    );
  }

  /**
   * A message a person wrote, kept so threads and `conversations.history` show it (never sent
   * as an event: what Slack holds while a client is away).
   */
  addPersonMessage(
    channel: string,
    threadTs: string | null,
    said: { user: string; text: string } | null = null,
  ): string {
    const ts = this.nextTs();
    this.messages.push({
      channel,
      ts,
      threadTs,
      text: said?.text ?? '(person)',
      blocks: null,
      username: null,
      iconUrl: null,
      botId: '',
      ...(said === null ? {} : { user: said.user }),
      edits: 0,
    });
    return ts;
  }

  nextTs(): string {
    this.counter += 1;
    return `${this.clock}.${String(this.counter).padStart(6, '0')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0] ?? '';
    const params = parseParams(raw, String(req.headers['content-type'] ?? ''));
    const auth = String(req.headers.authorization ?? '');
    if (this.stalled !== null) {
      this.calls.push({ method, at: Date.now(), params, ok: false, error: 'stalled', status: 0 });
      this.stalled.push(res);
      return;
    }
    const scripted = this.outage ?? this.failures.get(method)?.shift();
    if (scripted !== undefined) {
      this.calls.push({
        method,
        at: Date.now(),
        params,
        ok: false,
        error: `http_${scripted.status}`,
        status: scripted.status,
      });
      if (scripted.status === 429) res.setHeader('retry-after', String(scripted.retryAfterSeconds));
      res.writeHead(scripted.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ ok: false, error: scripted.status === 429 ? 'ratelimited' : 'internal_error' }),
      );
      return;
    }
    const answer = this.answer(method, params, auth);
    this.calls.push({
      method,
      at: Date.now(),
      params,
      ok: answer.ok === true,
      ...(answer.ok === true ? {} : { error: String(answer.error) }),
      status: 200,
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(answer));
  }

  private answer(method: string, p: Record<string, unknown>, auth: string): Record<string, unknown> {
    if (!KNOWN.has(method)) return { ok: false, error: 'unknown_method' };
    const expected = method === 'apps.connections.open' ? this.options.appToken : this.token;
    if (auth === '') return { ok: false, error: 'not_authed' };
    if (auth !== `Bearer ${expected}`) return { ok: false, error: 'invalid_auth' };
    if (this.revoked) return { ok: false, error: 'token_revoked' };
    const usergroups = this.usergroups.answer(method, p);
    if (usergroups !== null) return usergroups;
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://acme.slack.com/',
          team: 'Acme',
          user: 'summon',
          team_id: this.teamId,
          user_id: this.botUserId,
          bot_id: this.botId,
        };
      case 'apps.connections.open':
        return { ok: true, url: this.options.socketUrl?.() ?? 'ws://127.0.0.1:1/' };
      case 'chat.postMessage':
        return this.postMessage(p);
      case 'chat.update':
        return this.update(p);
      case 'chat.postEphemeral':
        return this.postEphemeral(p);
      case 'chat.getPermalink':
        return this.permalink(p);
      case 'chat.startStream':
        return this.streams.start(p);
      case 'chat.appendStream':
        return this.streams.append(p);
      case 'chat.stopStream':
        return this.streams.stop(p);
      case 'agents.sessions.setStatus':
        return this.agentSessions.setStatus(p);
      case 'conversations.history':
        return this.history(p);
      case 'conversations.replies':
        return this.replies(p);
      case 'views.publish': {
        if (typeof p.user_id !== 'string') return { ok: false, error: 'invalid_arguments' };
        const view = parseJson(p.view);
        if (view === undefined || (view as { type?: string }).type !== 'home')
          return { ok: false, error: 'invalid_arguments' };
        const blocks = (view as { blocks?: unknown }).blocks;
        // A Home tab holds at most 100 blocks, each with a type.
        if (
          !Array.isArray(blocks) ||
          blocks.length > 100 ||
          blocks.some((b) => typeof (b as { type?: unknown }).type !== 'string')
        )
          return { ok: false, error: 'invalid_arguments' };
        // Block Kit: a header's plain text is at most 150 characters, a section's text 3,000.
        for (const block of blocks as { type: string; text?: { type?: string; text?: unknown } }[]) {
          const text = block.text?.text;
          if (
            block.type === 'header' &&
            (block.text?.type !== 'plain_text' || typeof text !== 'string' || text.length > 150)
          )
            return { ok: false, error: 'invalid_blocks' };
          if (block.type === 'section' && typeof text === 'string' && text.length > LIMITS.sectionText)
            return { ok: false, error: 'invalid_blocks' };
        }
        this.views.push({ userId: p.user_id, view });
        return { ok: true, view };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  private checkContent(p: Record<string, unknown>, textLimit: number): string | null {
    if (typeof p.channel !== 'string' || p.channel === '') return 'channel_not_found';
    if (this.options.channels !== undefined && !this.options.channels.includes(p.channel))
      return 'not_in_channel';
    const blocks = p.blocks === undefined ? null : parseJson(p.blocks);
    if (p.blocks !== undefined && !Array.isArray(blocks)) return 'invalid_blocks';
    if ((typeof p.text !== 'string' || p.text === '') && blocks === null) return 'no_text';
    if (typeof p.text === 'string' && p.text.length > textLimit) return 'msg_too_long';
    if (Array.isArray(blocks)) {
      if (blocks.length > LIMITS.blocks) return 'invalid_blocks';
      for (const block of blocks as { type?: string; text?: { text?: string } }[]) {
        if (typeof block.type !== 'string') return 'invalid_blocks';
        if ((block.text?.text?.length ?? 0) > LIMITS.sectionText) return 'invalid_blocks';
      }
    }
    const customizes = p.username !== undefined || p.icon_url !== undefined;
    if (
      customizes &&
      !(this.options.scopes ?? ['chat:write', 'chat:write.customize']).includes('chat:write.customize')
    )
      return 'missing_scope';
    return null;
  }

  private postMessage(p: Record<string, unknown>): Record<string, unknown> {
    const refused = this.checkContent(p, LIMITS.text);
    if (refused !== null)
      return {
        ok: false,
        error: refused,
        ...(refused === 'missing_scope' ? { needed: 'chat:write.customize' } : {}),
      };
    const channel = p.channel as string;
    const threadTs = typeof p.thread_ts === 'string' ? p.thread_ts : null;
    if (threadTs !== null && this.index.find(channel, threadTs) === undefined)
      return { ok: false, error: 'thread_not_found' };
    const message: StoredSlackMessage = {
      channel,
      ts: this.nextTs(),
      threadTs,
      text: typeof p.text === 'string' ? p.text : '',
      blocks: (parseJson(p.blocks) as unknown[] | undefined) ?? null,
      username: typeof p.username === 'string' ? p.username : null,
      iconUrl: typeof p.icon_url === 'string' ? p.icon_url : null,
      botId: this.botId,
      user: this.botUserId,
      edits: 0,
    };
    this.messages.push(message);
    return {
      ok: true,
      channel,
      ts: message.ts,
      message: { type: 'message', text: message.text, bot_id: this.botId, ts: message.ts },
    };
  }

  private update(p: Record<string, unknown>): Record<string, unknown> {
    const refused = this.checkContent(p, LIMITS.updateText);
    if (refused !== null) return { ok: false, error: refused };
    const found = this.index.find(p.channel, p.ts);
    if (found === undefined) return { ok: false, error: 'message_not_found' };
    if (found.botId !== this.botId) return { ok: false, error: 'cant_update_message' };
    found.text = typeof p.text === 'string' ? p.text : '';
    found.blocks = (parseJson(p.blocks) as unknown[] | undefined) ?? null;
    found.edits += 1;
    return { ok: true, channel: found.channel, ts: found.ts, text: found.text };
  }

  /**
   * As https://api.slack.com/methods/chat.getPermalink answers: `channel` and `message_ts`
   * required; a reply's permalink carries `thread_ts` and `cid`.
   */
  private permalink(p: Record<string, unknown>): Record<string, unknown> {
    if (typeof p.channel !== 'string' || p.channel === '') return { ok: false, error: 'channel_not_found' };
    if (this.options.channels !== undefined && !this.options.channels.includes(p.channel))
      return { ok: false, error: 'channel_not_found' };
    if (typeof p.message_ts !== 'string' || p.message_ts === '')
      return { ok: false, error: 'invalid_arguments' };
    const found = this.index.find(p.channel, p.message_ts);
    if (found === undefined) return { ok: false, error: 'message_not_found' };
    const base = `https://acme.slack.com/archives/${found.channel}/p${found.ts.replace('.', '')}`;
    return {
      ok: true,
      channel: found.channel,
      permalink: found.threadTs === null ? base : `${base}?thread_ts=${found.threadTs}&cid=${found.channel}`,
    };
  }

  /**
   * As https://api.slack.com/methods/conversations.history answers: `channel` required (a
   * channel the bot is not in is `not_in_channel`); `oldest` / `latest` exclusive bounds
   * (`inclusive` not supported), `limit` 1–999 (default 100), `cursor` from the last page's
   * `response_metadata.next_cursor`. The channel's messages (no thread replies), newest first.
   */
  private history(p: Record<string, unknown>): Record<string, unknown> {
    const refused = this.checkRead(p);
    if (refused !== null) return refused;
    const window = this.window(p);
    if ('error' in window) return { ok: false, error: window.error };
    const all = this.messages
      .filter((m) => m.channel === p.channel && (m.threadTs === null || m.threadTs === m.ts))
      .filter((m) => window.inRange(m.ts))
      .sort((a, b) => compareTs(b.ts, a.ts));
    return this.page(all, window, (m) => this.shape(m));
  }

  /**
   * As https://api.slack.com/methods/conversations.replies answers: `channel` and `ts` (the
   * thread's root) required; the root first, whatever `oldest` says, then its replies oldest first.
   */
  private replies(p: Record<string, unknown>): Record<string, unknown> {
    const refused = this.checkRead(p);
    if (refused !== null) return refused;
    if (typeof p.ts !== 'string' || p.ts === '') return { ok: false, error: 'invalid_arguments' };
    const window = this.window(p);
    if ('error' in window) return { ok: false, error: window.error };
    const root = this.index.find(p.channel, p.ts);
    if (root === undefined) return { ok: false, error: 'thread_not_found' };
    const replies = this.messages
      .filter((m) => m.channel === p.channel && m.threadTs === root.ts && m.ts !== root.ts)
      .filter((m) => window.inRange(m.ts))
      .sort((a, b) => compareTs(a.ts, b.ts));
    return this.page([root, ...replies], window, (m) => this.shape(m));
  }

  private checkRead(p: Record<string, unknown>): Record<string, unknown> | null {
    if (typeof p.channel !== 'string' || p.channel === '') return { ok: false, error: 'channel_not_found' };
    if (!/^[CDG][A-Z0-9]{2,}$/.test(p.channel)) return { ok: false, error: 'channel_not_found' };
    if (this.options.channels !== undefined && !this.options.channels.includes(p.channel))
      return { ok: false, error: 'not_in_channel' };
    return null;
  }

  private window(
    p: Record<string, unknown>,
  ): { error: string } | { limit: number; offset: number; inRange: (ts: string) => boolean } {
    const ts = (value: unknown) => value === undefined || (typeof value === 'string' && TS.test(value));
    if (!ts(p.oldest)) return { error: 'invalid_ts_oldest' };
    if (!ts(p.latest)) return { error: 'invalid_ts_latest' };
    const limit = p.limit === undefined ? 100 : Number(p.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 999) return { error: 'invalid_limit' };
    let offset = 0;
    if (p.cursor !== undefined) {
      const decoded = /^offset:([0-9]+)$/.exec(Buffer.from(String(p.cursor), 'base64').toString());
      if (decoded?.[1] === undefined) return { error: 'invalid_cursor' };
      offset = Number(decoded[1]);
    }
    const oldest = p.oldest as string | undefined;
    const latest = p.latest as string | undefined;
    return {
      limit,
      offset,
      inRange: (m) =>
        (oldest === undefined || compareTs(m, oldest) > 0) &&
        (latest === undefined || compareTs(m, latest) < 0),
    };
  }

  private page(
    all: StoredSlackMessage[],
    window: { limit: number; offset: number },
    shape: (m: StoredSlackMessage) => Record<string, unknown>,
  ): Record<string, unknown> {
    const slice = all.slice(window.offset, window.offset + window.limit);
    const more = window.offset + window.limit < all.length;
    return {
      ok: true,
      messages: slice.map(shape),
      has_more: more,
      response_metadata: {
        next_cursor: more ? Buffer.from(`offset:${window.offset + window.limit}`).toString('base64') : '',
      },
    };
  }

  /** A message as Slack lists it: a thread's root carries `thread_ts`, `reply_count`, `latest_reply`. */
  private shape(m: StoredSlackMessage): Record<string, unknown> {
    const replies = this.messages.filter(
      (r) => r.channel === m.channel && r.threadTs === m.ts && r.ts !== m.ts,
    );
    const latest = replies
      .map((r) => r.ts)
      .sort(compareTs)
      .at(-1);
    return {
      type: 'message',
      ts: m.ts,
      text: m.text,
      ...(m.blocks === null ? {} : { blocks: m.blocks }),
      ...(m.user === undefined ? {} : { user: m.user }),
      ...(m.botId === '' ? {} : { bot_id: m.botId, app_id: 'A0APP00001' }),
      ...(m.threadTs !== null ? { thread_ts: m.threadTs } : {}),
      ...(latest === undefined ? {} : { thread_ts: m.ts, reply_count: replies.length, latest_reply: latest }),
    };
  }

  /** A message deleted in Slack: gone from the channel, so it has no permalink any more. */
  deleteMessage(channel: string, ts: string): void {
    this.index.forget(channel, ts);
  }

  private postEphemeral(p: Record<string, unknown>): Record<string, unknown> {
    const refused = this.checkContent(p, LIMITS.text);
    if (refused !== null) return { ok: false, error: refused };
    if (typeof p.user !== 'string' || p.user === '') return { ok: false, error: 'user_not_found' };
    this.ephemerals.push({
      channel: p.channel as string,
      user: p.user,
      text: String(p.text ?? ''),
      threadTs: typeof p.thread_ts === 'string' ? p.thread_ts : null,
    });
    return { ok: true, message_ts: this.nextTs() };
  }
}

const TS = /^[0-9]{1,12}(\.[0-9]{1,6})?$/;

/** Slack ts values in order (seconds, then the six-digit fraction). */
function compareTs(a: string, b: string): number {
  const value = (ts: string) => {
    const [seconds = '0', fraction = ''] = ts.split('.');
    return BigInt(seconds) * 1_000_000n + BigInt(fraction.padEnd(6, '0') || '0');
  };
  const x = value(a);
  const y = value(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** The WebClient sends forms (objects as JSON strings); some callers send JSON. */
function parseParams(raw: string, contentType: string): Record<string, unknown> {
  if (contentType.includes('application/json'))
    return raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
  return Object.fromEntries(new URLSearchParams(raw));
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
