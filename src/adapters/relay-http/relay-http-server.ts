import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayPairingRecord } from '../../core/model/relays/relay-records';
import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { Store } from '../../core/ports/store';
import type { RelayInbound } from '../../core/relays/relay-inbound';
import { completeOffer } from '../../core/relays/relay-pairing';
import {
  pairRequest,
  RELAY_OPERATIONS,
  RELAY_PATH_PREFIX,
  RELAY_PROTOCOL_VERSION,
  type RelayOperation,
  RelayRefusal,
} from '../../core/relays/relay-protocol';
import { HEADERS, verifyRequest } from './relay-signature';

/** R1: a request's timestamp may be this far from our clock, either way; nonces are kept as long. */
export const TIMESTAMP_WINDOW_MS = 5 * 60_000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * R1–R3: the relay protocol's server on Summon's HTTP server, under `/relay/v1/`. Every request
 * is verified before anything else is read: the pairing it names, its Ed25519 signature, its
 * timestamp within the window, its nonce never seen; then the pairing must not be revoked.
 * Each refusal is logged and answered `{ error: { code, message } }`; nothing runs.
 */
export class RelayHttpServer {
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      logger: Logger;
      relayName: string | null;
      inbound: RelayInbound;
    },
  ) {}

  /** False when the request is not the relay protocol's. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (!path.startsWith(RELAY_PATH_PREFIX)) return false;
    void this.serve(request, response, path).catch((error: unknown) => {
      this.deps.logger.error({ path, err: String(error) }, 'a relay request failed');
      if (!response.headersSent)
        send(response, 500, {
          error: { code: 'internal', message: 'The relay failed to handle the request.' },
        });
    });
    return true;
  }

  private async serve(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const operation = path.slice(RELAY_PATH_PREFIX.length);
    try {
      // N3: the address a paired relay's badge links to: which session of this relay it is.
      if (request.method === 'GET' && operation.startsWith('sessions/')) {
        await this.session(response, operation.slice('sessions/'.length));
        return;
      }
      if (request.method !== 'POST')
        throw new RelayRefusal('bad_request', 'The relay protocol takes POST requests only.');
      const version = header(request, HEADERS.version);
      if (version !== RELAY_PROTOCOL_VERSION)
        throw new RelayRefusal(
          'unsupported_version',
          `This relay speaks version ${RELAY_PROTOCOL_VERSION} of the relay protocol, not "${version ?? ''}".`,
        );
      const body = await readBody(request);
      if (operation === 'pair') {
        send(response, 200, await this.pair(request, path, body));
        return;
      }
      if (!(operation in RELAY_OPERATIONS))
        throw new RelayRefusal('not_found', `There is no relay operation "${operation}".`);
      const pairing = await this.verify(request, path, body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new RelayRefusal('bad_request', 'The request body is not JSON.');
      }
      const result = await this.deps.inbound.handle(operation as RelayOperation, pairing, parsed);
      send(response, 200, result);
    } catch (error) {
      if (!(error instanceof RelayRefusal)) throw error;
      this.deps.logger.warn(
        {
          operation,
          code: error.code,
          key: header(request, HEADERS.key) ?? null,
          reason: error.message,
        },
        'relay request refused',
      );
      send(response, error.status, { error: { code: error.code, message: error.message } });
    }
  }

  /** N3: a person's browser, unsigned: a redirect to the thread, or a page naming the session. */
  private async session(response: ServerResponse, id: string): Promise<void> {
    const link = await this.deps.inbound.sessionLink(id);
    if (link.kind === 'redirect') {
      response.writeHead(302, { location: link.url, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    response.writeHead(link.kind === 'page' ? 200 : 404, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(link.text);
  }

  /** R1: the pairing the request names, its signature, its time and its nonce, in that order. */
  private async verify(request: IncomingMessage, path: string, body: string): Promise<RelayPairingRecord> {
    const keyId = header(request, HEADERS.key) ?? '';
    const pairing = await this.deps.store.transaction((tx) => tx.relays.findPairing(keyId));
    if (pairing === null)
      throw new RelayRefusal('unknown_pairing', 'This relay has no pairing with that key id.');
    this.checkSignature(request, path, body, keyId, pairing.remotePublicKey);
    if (pairing.revokedAt !== null)
      throw new RelayRefusal(
        'revoked',
        `The pairing with ${pairing.remoteName} was revoked on relay ${this.deps.relayName ?? 'this relay'}.`,
      );
    const now = this.deps.clock.now();
    const fresh = await this.deps.store.inWorkspace(pairing.workspaceId, (tx) =>
      tx.relays.useNonce(
        pairing.workspaceId,
        pairing.id,
        header(request, HEADERS.nonce) ?? '',
        now,
        new Date(now.getTime() - 2 * TIMESTAMP_WINDOW_MS),
      ),
    );
    if (!fresh)
      throw new RelayRefusal(
        'replayed',
        'This request was received before (its nonce was used); nothing was done again.',
      );
    return pairing;
  }

  private checkSignature(
    request: IncomingMessage,
    path: string,
    body: string,
    keyId: string,
    publicKey: string,
  ): void {
    const timestamp = header(request, HEADERS.timestamp) ?? '';
    const nonce = header(request, HEADERS.nonce) ?? '';
    const signature = header(request, HEADERS.signature) ?? '';
    if (!/^\d{1,15}$/.test(timestamp) || nonce.length < 16 || nonce.length > 100)
      throw new RelayRefusal('bad_request', 'The request lacks a timestamp or a nonce.');
    if (!verifyRequest(publicKey, { method: 'POST', path, keyId, timestamp, nonce, body }, signature))
      throw new RelayRefusal('bad_signature', 'The request signature does not verify with the paired key.');
    const skew = Math.abs(this.deps.clock.now().getTime() - Number(timestamp));
    if (skew > TIMESTAMP_WINDOW_MS)
      throw new RelayRefusal(
        'stale_timestamp',
        `The request's timestamp is ${Math.round(skew / 1000)} s away from this relay's clock (at most ${TIMESTAMP_WINDOW_MS / 1000} s).`,
      );
  }

  /** R1: an offer completed; the request is signed with the key it introduces. */
  private async pair(request: IncomingMessage, path: string, body: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new RelayRefusal('bad_request', 'The request body is not JSON.');
    }
    const pair = pairRequest.safeParse(parsed);
    if (!pair.success) throw new RelayRefusal('bad_request', 'The pairing request is malformed.');
    this.checkSignature(request, path, body, pair.data.offer, pair.data.publicKey);
    const done = await completeOffer(this.deps, pair.data);
    this.deps.logger.info({ relay: pair.data.relay, grants: done.grants }, 'paired with a relay');
    return done;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RelayRefusal('bad_request', 'The request body is larger than 1 MB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
