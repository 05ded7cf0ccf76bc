import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type OpenedTarget, openTarget, parseTarget, type TargetGate } from './egress-target';

export interface StartedEgressProxy {
  port: number;
  close(): Promise<void>;
}

/** Headers that concern the hop to the proxy, not the request it forwards (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * X2: a run's filtering HTTP proxy on the host's loopback: CONNECT tunnels for HTTPS and
 * absolute-URI requests for plain HTTP, each target passed through `openTarget`. A refusal is a
 * `403` whose body (and `X-Summon-Refusal` header) is the sentence the agent reads.
 */
export async function startEgressProxy(
  gate: Omit<TargetGate, 'forbiddenPorts'> & {
    forbiddenPorts: readonly number[];
  },
): Promise<StartedEgressProxy> {
  const closing = new AbortController();
  const sockets = new Set<Duplex>();
  const forbidden = new Set(gate.forbiddenPorts);
  const fullGate: TargetGate = { ...gate, forbiddenPorts: forbidden };

  const server = createServer((req, res) => void forward(fullGate, req, res, closing.signal));
  server.on('connection', (socket) => track(sockets, socket));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(sockets, client);
    void tunnel(fullGate, req, client, head, closing.signal);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  forbidden.add(port);
  return {
    port,
    close: async () => {
      closing.abort();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function track(sockets: Set<Duplex>, socket: Duplex): void {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
  socket.on('error', () => socket.destroy());
}

/** A signal that ends when the proxy closes or the client goes away (an approval stops waiting). */
function requestSignal(closing: AbortSignal, client: Duplex): AbortSignal {
  const gone = new AbortController();
  client.once('close', () => gone.abort());
  return AbortSignal.any([closing, gone.signal]);
}

async function tunnel(
  gate: TargetGate,
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  closing: AbortSignal,
) {
  const target = parseTarget(req.url ?? '', 443);
  const opened: OpenedTarget =
    target === null
      ? { ok: false, status: 400, sentence: 'The proxy expects CONNECT host:port.' }
      : await openTarget(gate, target, requestSignal(closing, client));
  if (!opened.ok) {
    const body = `${opened.sentence}\n`;
    client.end(
      `HTTP/1.1 ${opened.status} ${opened.status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\n` +
        `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Summon-Refusal: ${headerSafe(opened.sentence)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  if (client.destroyed) {
    opened.socket.destroy();
    return;
  }
  client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
  if (head.length > 0) opened.socket.write(head);
  pipeBoth(client, opened.socket);
}

async function forward(gate: TargetGate, req: IncomingMessage, res: ServerResponse, closing: AbortSignal) {
  const url = parseAbsoluteHttp(req.url ?? '');
  const target = url === null ? null : parseTarget(url.host, 80);
  const opened: OpenedTarget =
    url === null || target === null
      ? {
          ok: false,
          status: 400,
          sentence: 'The proxy expects an absolute http:// URL (or CONNECT for https).',
        }
      : await openTarget(gate, target, requestSignal(closing, req.socket));
  if (!opened.ok || url === null || target === null) {
    const sentence = opened.ok ? '' : opened.sentence;
    if (opened.ok) opened.socket.destroy();
    res.writeHead(opened.ok ? 400 : opened.status, {
      'content-type': 'text/plain; charset=utf-8',
      'x-summon-refusal': headerSafe(sentence),
      connection: 'close',
    });
    res.end(`${sentence}\n`);
    return;
  }
  const socket = opened.socket;
  const upstream = request({
    createConnection: () => socket,
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    headers: withoutHopByHop(req.rawHeaders),
    setHost: false,
  });
  upstream.once('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.rawHeaders));
    answer.pipe(res);
  });
  upstream.once('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${target.host}:${target.port} ended the connection.\n`);
  });
  res.once('close', () => socket.destroy());
  req.pipe(upstream);
}

function withoutHopByHop(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, raw[i + 1] ?? '');
  }
  return kept;
}

function parseAbsoluteHttp(raw: string): URL | null {
  if (!raw.startsWith('http://')) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function pipeBoth(client: Duplex, upstream: Socket): void {
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  upstream.pipe(client);
  client.pipe(upstream);
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => client.end());
}

const headerSafe = (text: string): string => text.replace(/[^\x20-\x7e]/g, ' ');
