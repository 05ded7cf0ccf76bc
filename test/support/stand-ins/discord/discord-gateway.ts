import type { Server } from 'node:http';
import { GatewayOpcodes } from 'discord-api-types/v10';
import { type WebSocket, WebSocketServer } from 'ws';
import { checkedDispatch } from './discord-fixtures';

/** Gateway op codes, from discord-api-types (what discord.js itself is typed against). */
const OP = {
  dispatch: GatewayOpcodes.Dispatch,
  heartbeat: GatewayOpcodes.Heartbeat,
  identify: GatewayOpcodes.Identify,
  resume: GatewayOpcodes.Resume,
  reconnect: GatewayOpcodes.Reconnect,
  invalidSession: GatewayOpcodes.InvalidSession,
  hello: GatewayOpcodes.Hello,
  heartbeatAck: GatewayOpcodes.HeartbeatAck,
} as const;

interface Sent {
  seq: number;
  t: string;
  d: unknown;
}

/**
 * The gateway side of the Discord stand-in: HELLO, IDENTIFY → READY (+ what `onReady` sends,
 * GUILD_CREATE), HEARTBEAT → ACK, RESUME → replay + RESUMED or INVALID_SESSION, RECONNECT.
 * Dispatches made while no client is connected are kept for a resume (a resumable session) or
 * lost (Discord then cannot deliver them: only a back-fill finds them).
 */
export class DiscordGateway {
  readonly opsReceived: number[] = [];
  readonly log: string[] = [];
  /** Each IDENTIFY's payload, the token replaced. */
  readonly identifies: Record<string, unknown>[] = [];
  private readonly wss: WebSocketServer;
  private socket: WebSocket | null = null;
  private sessionId: string | null = null;
  private sessions = 0;
  private seq = 0;
  private sent: Sent[] = [];
  private resumable = true;
  private replayExtra = 0;
  private held: (() => void)[] | null = null;
  private readyListeners: (() => void)[] = [];

  constructor(
    server: Server,
    private readonly options: {
      token: () => string;
      ready: (sessionId: string) => unknown;
      onIdentified: (dispatch: (t: string, d: unknown) => void) => void;
      /** Whether IDENTIFY's intents ask for a privileged one the application has not turned on. */
      disallowed?: (intents: number) => boolean;
    },
  ) {
    this.wss = new WebSocketServer({ server });
    this.wss.on('connection', (ws) => this.accept(ws));
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  /** Sends an event now, or keeps it for the session's resume while the client is away. */
  dispatch(t: string, d: unknown): void {
    if (this.sessionId === null) return;
    checkedDispatch(t, d);
    const event = { seq: ++this.seq, t, d };
    this.sent.push(event);
    this.socket?.send(JSON.stringify({ op: OP.dispatch, t, s: event.seq, d }));
  }

  /** Waits for the next READY the client receives. */
  nextReady(): Promise<void> {
    return new Promise((resolve) => this.readyListeners.push(resolve));
  }

  /** Op 7: Discord asks the client to reconnect and resume. */
  requestReconnect(options: { replayLast?: number } = {}): void {
    this.replayExtra = options.replayLast ?? 0;
    this.socket?.send(JSON.stringify({ op: OP.reconnect, d: null }));
  }

  /**
   * The connection drops (close 4000: the client reconnects and tries to resume). Until
   * `restore`, a reconnecting client gets no HELLO. `resumable: false` ends the session: its
   * resume is refused (INVALID_SESSION) and what was dispatched meanwhile is lost.
   */
  drop(options: { resumable: boolean }): void {
    this.held = [];
    this.resumable = options.resumable;
    if (!options.resumable) this.sessionId = null;
    this.socket?.close(4000, 'stand-in dropped the connection');
    this.socket = null;
  }

  restore(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const go of waiting) go();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    this.log.push('connect');
    ws.on('message', (raw) => this.receive(ws, raw.toString()));
    ws.on('close', () => {
      if (this.socket === ws) this.socket = null;
    });
    const hello = () => ws.send(JSON.stringify({ op: OP.hello, d: { heartbeat_interval: 41_250 } }));
    if (this.held === null) hello();
    else this.held.push(hello);
  }

  private receive(ws: WebSocket, raw: string): void {
    const payload = JSON.parse(raw) as { op: number; d: Record<string, unknown> | number | null };
    this.opsReceived.push(payload.op);
    const d = typeof payload.d === 'object' && payload.d !== null ? payload.d : {};
    if (payload.op === OP.heartbeat) ws.send(JSON.stringify({ op: OP.heartbeatAck }));
    if (payload.op === OP.identify) this.identify(ws, d);
    if (payload.op === OP.resume) this.resume(ws, d);
  }

  private identify(ws: WebSocket, d: Record<string, unknown>): void {
    this.log.push('identify');
    this.identifies.push({ ...d, token: '[checked]' });
    if (d.token !== this.options.token()) {
      ws.close(4004, 'Authentication failed.');
      return;
    }
    if (this.options.disallowed?.(Number(d.intents ?? 0)) === true) {
      this.log.push('disallowed intents');
      ws.close(4014, 'Disallowed intent(s).');
      return;
    }
    this.socket = ws;
    this.sessionId = `session-${++this.sessions}`;
    this.seq = 0;
    this.sent = [];
    this.resumable = true;
    this.dispatch('READY', this.options.ready(this.sessionId));
    this.options.onIdentified((t, data) => this.dispatch(t, data));
    for (const listener of this.readyListeners.splice(0)) listener();
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): void {
    if (!this.resumable || d.session_id !== this.sessionId || d.token !== this.options.token()) {
      this.log.push('resume refused');
      ws.send(JSON.stringify({ op: OP.invalidSession, d: false }));
      return;
    }
    this.log.push('resume');
    this.socket = ws;
    const from = Number(d.seq ?? 0) - this.replayExtra;
    this.replayExtra = 0;
    // A session's READY and GUILD_CREATE are never replayed.
    const replayable = this.sent.filter((e) => e.seq > from && e.t !== 'READY' && e.t !== 'GUILD_CREATE');
    this.log.push(`replayed ${replayable.map((e) => e.t).join(',')}`);
    for (const event of replayable) {
      ws.send(JSON.stringify({ op: OP.dispatch, t: event.t, s: event.seq, d: event.d }));
    }
    this.seq = Math.max(this.seq, ...this.sent.map((e) => e.seq));
    ws.send(JSON.stringify({ op: OP.dispatch, t: 'RESUMED', s: ++this.seq, d: {} }));
  }
}
