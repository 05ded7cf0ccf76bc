import type { IncomingMessage, ServerResponse } from 'node:http';
import { SecretBox } from '../adapters/mcp-oauth/secret-box';
import type { RunJob } from '../core/engine/run-job';
import type { Platform } from '../core/model/platform';
import type { ChatPlatform } from '../core/ports/chat-platform';
import type { Clock } from '../core/ports/clock';
import type { Logger } from '../core/ports/logger';
import type { Store } from '../core/ports/store';
import { postNotice, startFiring } from '../core/routines/fire-routines';
import { findRoutine } from '../core/routines/routine-control';
import { claimWebhookFiring } from '../core/routines/webhook-firing';
import { WEBHOOK_BODY_LIMIT, webhookProblem, webhookPrompt } from '../core/routines/webhook-signature';

const PATH = /^\/hooks\/([a-z0-9][a-z0-9_-]{0,62})\/([a-z0-9][a-z0-9_-]{0,62})\/([a-z0-9][a-z0-9_-]{0,62})$/;

export interface RoutineWebhookDeps {
  store: Store;
  platforms: ReadonlyMap<Platform, ChatPlatform>;
  wake(job: RunJob): Promise<void>;
  clock: Clock;
  logger: Logger;
  /** SUMMON_SECRET_KEY: opens the routines' sealed secrets; absent, every request is refused. */
  secretKey: Buffer | undefined;
}

/** W5: the sealed secret's binding: a secret copied into another routine's row does not open. */
export const webhookSecretContext = (routineId: string): string => `routine-webhook:${routineId}`;

/**
 * W5: `POST /hooks/<workspace>/<space>/<routine>`: a signed request fires a webhook routine as a
 * turn with its body as untrusted input. Unsigned, mis-signed or stale: 401, logged, nothing
 * runs; a delivery id already accepted: 200, nothing runs again (P6).
 */
export function routineWebhookRoute(deps: RoutineWebhookDeps) {
  const log = deps.logger.child({ component: 'routine-webhooks' });
  const reply = (response: ServerResponse, status: number, body: Record<string, unknown>) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const match = PATH.exec(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (match === null) return false;
    if (request.method !== 'POST') {
      reply(response, 405, { error: 'POST a signed request' });
      return true;
    }
    const [, workspace = '', space = '', name = ''] = match;
    serve(deps, request, { workspace, space, name }, log)
      .then(({ status, body }) => reply(response, status, body))
      .catch((error: unknown) => {
        log.error({ err: error, workspace, space, routine: name }, 'webhook failed');
        reply(response, 500, { error: 'the webhook could not be handled; try again' });
      });
    return true;
  };
}

type Answer = { status: number; body: Record<string, unknown> };

async function serve(
  deps: RoutineWebhookDeps,
  request: IncomingMessage,
  where: { workspace: string; space: string; name: string },
  log: Logger,
): Promise<Answer> {
  const body = await readBounded(request);
  if (body === null) return { status: 413, body: { error: `the body is over ${WEBHOOK_BODY_LIMIT} bytes` } };
  const now = deps.clock.now();
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const headers = {
    timestamp: header('x-summon-timestamp'),
    delivery: header('x-summon-delivery'),
    signature: header('x-summon-signature-256'),
  };
  const at = {
    workspace: where.workspace,
    space: where.space,
    routine: where.name,
    delivery: headers.delivery,
  };
  const found = await deps.store.transaction(async (tx) => {
    const ws = await tx.workspaces.findBySlug(where.workspace);
    if (ws === null) return null;
    const routine = await findRoutine(tx, ws.id, `${where.space}/${where.name}`).catch(() => null);
    if (routine === null || routine.trigger.kind !== 'webhook') return null;
    return { routine, sealed: await tx.routines.webhookSecret(routine.id) };
  });
  if (found === null) return { status: 404, body: { error: 'no webhook routine at this address' } };
  const { routine, sealed } = found;
  const secret =
    sealed === null || deps.secretKey === undefined
      ? null
      : new SecretBox(deps.secretKey).open(sealed, webhookSecretContext(routine.id));
  const problem =
    secret === null
      ? 'the routine has no secret yet (summon routines secret <space>/<routine>)'
      : webhookProblem(secret, headers, body, now);
  if (problem !== null) {
    log.warn({ ...at, reason: problem }, 'webhook refused');
    return { status: 401, body: { error: problem } };
  }
  if (routine.paused) return { status: 409, body: { error: 'the routine is paused; nothing runs' } };
  const prompt = webhookPrompt(routine.prompt, body, header('content-type'));
  const claim = await deps.store.transaction((tx) =>
    claimWebhookFiring(tx, deps, routine, { id: headers.delivery ?? '', prompt }, now),
  );
  if (claim === null) return { status: 200, body: { status: 'duplicate', delivery: headers.delivery } };
  if ('refused' in claim) {
    // W4: a used-up budget says so once in the routine's channel.
    if (claim.notice !== null) await postNotice(deps, claim.notice);
    return { status: 409, body: { error: claim.refused } };
  }
  await startFiring(deps, claim);
  log.info({ ...at, firingId: claim.firing.id }, 'webhook accepted');
  return { status: 202, body: { status: 'accepted', firing: claim.firing.id } };
}

/** The body, or null past the limit (reading stops there). */
async function readBounded(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > WEBHOOK_BODY_LIMIT) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
