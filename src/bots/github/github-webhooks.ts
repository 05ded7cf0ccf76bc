import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InboxEntry } from '../../core/model/inbox';
import type { IngestOutcome } from '../../core/ports/chat-engine';
import type { GitHubDelivery } from '../../core/ports/github-events';
import type { Logger } from '../../core/ports/logger';
import { type GitHubComment, readDelivery } from './github-comment';

export const WEBHOOK_PATH = '/github/webhooks';
/** GitHub caps a webhook payload at 25 MB; anything longer is not GitHub's. */
const BODY_LIMIT = 25 * 1024 * 1024;
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;

export interface WebhookReceiverDeps {
  secret: string;
  logger: Logger;
  /** T4: stores the comment's inbox row; null until the front end is started. */
  ingest: () => ((entry: InboxEntry) => Promise<IngestOutcome>) | null;
  /** Every verified delivery, after the answer to GitHub (subscribers, P19). */
  delivered: (delivery: GitHubDelivery) => void;
  now: () => Date;
}

/**
 * P19, P6, T4: `POST /github/webhooks`. Every delivery is verified (`X-Hub-Signature-256`,
 * 401 otherwise, nothing runs); a person's comment is stored once in the inbox, keyed by
 * `X-GitHub-Delivery`, and only then acknowledged (202), well within GitHub's 10 s: routing
 * follows from the inbox. Other events are acknowledged and handed to subscribers; a payload
 * that is not what its event says is 400 and logged.
 */
export class GitHubWebhookReceiver {
  constructor(private readonly deps: WebhookReceiverDeps) {}

  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== WEBHOOK_PATH) return false;
    void this.serve(request, response).catch((error: unknown) => {
      this.deps.logger.error({ err: String(error) }, 'a GitHub delivery could not be taken in');
      answer(response, 500, 'The delivery could not be stored; redeliver it.');
    });
    return true;
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST') return answer(response, 405, 'GitHub webhooks are POSTed here.');
    const raw = await readBody(request);
    if (raw === null) return answer(response, 413, 'The payload is larger than GitHub sends.');
    const signature = header(request, 'x-hub-signature-256');
    const event = header(request, 'x-github-event');
    const deliveryId = header(request, 'x-github-delivery');
    const log = this.deps.logger.child({ component: 'github', event, deliveryId });
    if (signature === null || !signedWith(this.deps.secret, raw, signature)) {
      log.warn({ signed: signature !== null }, 'a GitHub delivery with no valid signature was refused');
      return answer(response, 401, 'The X-Hub-Signature-256 signature does not match.');
    }
    if (event === null || deliveryId === null || !DELIVERY_ID.test(deliveryId)) {
      log.warn({}, 'a signed GitHub delivery without its event or delivery id was refused');
      return answer(response, 400, 'X-GitHub-Event and X-GitHub-Delivery are required.');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch {
      log.warn({}, 'a signed GitHub delivery whose body is not JSON was refused');
      return answer(response, 400, 'The payload is not JSON.');
    }
    const read = readDelivery(event, payload);
    if (read.kind === 'malformed') {
      log.warn({ reason: read.reason }, 'a signed GitHub delivery with a malformed payload was refused');
      return answer(response, 400, `The ${event} payload is malformed (${read.reason}).`);
    }
    const receivedAt = this.deps.now();
    if (read.kind === 'comment') {
      const ingest = this.deps.ingest();
      if (ingest === null) return answer(response, 503, 'Summon is starting; redeliver in a moment.');
      const outcome = await ingest(inboxEntry(deliveryId, read.comment, receivedAt));
      log.info({ stored: outcome.stored, thread: read.comment.thread }, 'GitHub comment taken in');
      answer(response, 202, outcome.stored ? 'Stored.' : 'Already received.');
    } else {
      log.debug({ reason: read.reason }, 'GitHub delivery acknowledged, no comment in it');
      answer(response, 202, 'Acknowledged.');
    }
    this.deps.delivered(deliveryOf(deliveryId, event, payload, receivedAt));
  }
}

/**
 * P19: GitHub's `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body under
 * the webhook secret, compared in constant time. (What `@octokit/webhooks`' `verify` does; the
 * tests sign with that library. It is not loaded here: its ESM-only dependency cannot be
 * required by the CommonJS build under tsx.)
 */
export function signedWith(secret: string, raw: string, signature: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw, 'utf8').digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** T4: the inbox row of a person's comment; P6: the delivery id is the de-duplication key. */
function inboxEntry(deliveryId: string, comment: GitHubComment, receivedAt: Date): InboxEntry {
  return {
    platform: 'github',
    eventId: deliveryId,
    threadKey: comment.thread,
    channelKey: comment.topLevel ? `github:${comment.repo}` : null,
    payload: comment,
    receivedAt,
  };
}

function deliveryOf(id: string, name: string, payload: unknown, receivedAt: Date): GitHubDelivery {
  const fields = (payload ?? {}) as { action?: unknown; repository?: { full_name?: unknown } };
  const repo = fields.repository?.full_name;
  return {
    id,
    name,
    action: typeof fields.action === 'string' ? fields.action : null,
    repo: typeof repo === 'string' ? repo.toLowerCase() : null,
    payload,
    receivedAt,
  };
}

const header = (request: IncomingMessage, name: string): string | null => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

function answer(response: ServerResponse, status: number, message: string): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ message }));
}

/** The body as text, or null past GitHub's limit. */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
