import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/** An envelope ack as Bolt sends it back over the socket. */
export interface SocketAck {
  envelope_id: string;
  payload?: unknown;
}

/**
 * A local Socket Mode endpoint on the Web API stand-in's server: `apps.connections.open` hands
 * out `ws://…/link/?ticket=…`; a connection with another ticket is refused; a connected client
 * gets `hello`, then the envelopes a test sends, and must ack each by its `envelope_id`.
 */
export class SlackSocketModeStandIn {
  readonly acks: SocketAck[] = [];
  readonly malformed: string[] = [];
  private readonly wss: WebSocketServer;
  private readonly tickets = new Set<string>();
  private socket: WebSocket | null = null;

  constructor(private readonly server: Server) {
    this.wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (request, socket, head) => {
      const url = new URL(request.url ?? '/', 'ws://127.0.0.1');
      const ticket = url.searchParams.get('ticket') ?? '';
      if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
        socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
    });
  }

  /** What `apps.connections.open` answers: a one-time URL. */
  nextUrl(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/link/?ticket=${ticket}&app_id=A0APP00001`;
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  /** Sends an envelope; resolves with Bolt's ack of it. */
  async send(type: 'events_api' | 'interactive' | 'slash_commands', payload: unknown): Promise<SocketAck> {
    const ack = await this.trySend(type, payload);
    if (ack === null) throw new Error(`no ack for a ${type} envelope`);
    return ack;
  }

  /**
   * Sends an envelope (`retryAttempt`: Slack's count of earlier unacknowledged deliveries of the
   * same event); resolves with Bolt's ack, or null when none came within `waitMs` (Slack would
   * then send the event again).
   */
  async trySend(
    type: 'events_api' | 'interactive' | 'slash_commands',
    payload: unknown,
    options: { retryAttempt?: number; waitMs?: number } = {},
  ): Promise<SocketAck | null> {
    const socket = this.socket;
    if (socket === null) throw new Error('no Socket Mode client is connected');
    const envelopeId = randomUUID();
    const retry = options.retryAttempt ?? 0;
    socket.send(
      JSON.stringify({
        envelope_id: envelopeId,
        type,
        payload,
        accepts_response_payload: type !== 'events_api',
        ...(type === 'events_api'
          ? { retry_attempt: retry, retry_reason: retry === 0 ? '' : 'timeout' }
          : {}),
      }),
    );
    const deadline = Date.now() + (options.waitMs ?? 5000);
    for (;;) {
      const ack = this.acks.find((a) => a.envelope_id === envelopeId);
      if (ack !== undefined) return ack;
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * Slack's `disconnect` message (it recycles the connection): the client closes this socket
   * and opens a new one through `apps.connections.open`; events sent meanwhile reach nobody.
   */
  sendDisconnect(): void {
    const socket = this.socket;
    if (socket === null) throw new Error('no Socket Mode client is connected');
    socket.send(
      JSON.stringify({
        type: 'disconnect',
        reason: 'refresh_requested',
        debug_info: { host: 'applink-local' },
      }),
    );
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    this.socket = ws;
    ws.on('message', (data) => {
      const text = data.toString();
      try {
        const parsed = JSON.parse(text) as SocketAck;
        if (typeof parsed.envelope_id !== 'string') throw new Error('no envelope_id');
        this.acks.push(parsed);
      } catch {
        this.malformed.push(text);
      }
    });
    ws.on('close', () => {
      if (this.socket === ws) this.socket = null;
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'applink-local', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0APP00001' },
      }),
    );
  }
}
