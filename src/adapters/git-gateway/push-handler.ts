import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PushGate } from '../../core/git/push-gate';
import type { GitPushRecord } from '../../core/model/git-gateway';
import type { RunRecord } from '../../core/model/records';
import type { GitGatewayDeps } from './gateway-deps';
import { band, FLUSH } from './pkt-line';
import { progress, pushRefusal } from './push-refusal';
import { usesSideBand } from './receive-pack-commands';
import { acceptedRefs, REPORT_LIMIT } from './report-status';
import { drain, type PushBody, type SpooledBody, spool, streamBody } from './request-body';
import { sendUpstream, upstreamHeaders } from './upstream';

const RESULT_HEADERS = {
  'content-type': 'application/x-git-receive-pack-result',
  'cache-control': 'no-cache',
};

export interface PushContext {
  req: IncomingMessage;
  res: ServerResponse;
  run: RunRecord;
  repo: string;
  upstreamPath: string;
  body: PushBody;
  /** The request body was gzip: the bytes we forward are decoded. */
  decoded: boolean;
}

/**
 * G2, G4, G5 at the moment of the push, on the wire: the core's push gate decides; `forward`
 * streams the push upstream (an ask's spooled copy, once approved); `refuse` answers with
 * git's own refusal and sends nothing; while an ask is held the client hears progress lines,
 * and a client that leaves ends the wait.
 */
export async function handlePush(deps: GitGatewayDeps, gate: PushGate, ctx: PushContext): Promise<void> {
  const { updates, capabilities } = ctx.body.commands;
  if (updates.length === 0) {
    // git's 4-byte `0000` probe before a large push: no commands, nothing to decide.
    await forward(deps, gate, ctx, streamBody(ctx.body), undefined, null);
    return;
  }
  const file = path.join(deps.spoolDir, `push-${randomUUID()}.body`);
  let spooled = null as SpooledBody | null;
  let spooling = false;
  const sideBand = usesSideBand(capabilities);
  const say = (lines: string[]) => {
    if (sideBand && !ctx.res.writableEnded) ctx.res.write(Buffer.concat(progress(lines)));
  };
  const gone = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) gone.abort();
  };
  let progressTimer: NodeJS.Timeout | undefined;
  const stopHolding = () => {
    clearInterval(progressTimer);
    ctx.res.off('close', onClose);
  };
  try {
    const verdict = await gate.decide(
      { run: ctx.run, repo: ctx.repo, updates },
      {
        inspect: async () => {
          // An ask: the pack waits on disk, and its objects tell the card what the push does.
          spooling = true;
          const body = await spool(ctx.body, file);
          spooled = body;
          const hasPack = body.length > ctx.body.commands.packOffset;
          return deps.inspector.inspect(
            ctx.repo,
            updates,
            hasPack ? () => body.openPack() ?? body.open() : null,
          );
        },
        held: (summary) => {
          ctx.res.writeHead(200, RESULT_HEADERS);
          say([
            `Summon: ${summary}`,
            'waiting for approval … (an approval card was posted in the conversation)',
          ]);
          ctx.res.once('close', onClose);
          if (ctx.res.destroyed) gone.abort();
          const started = deps.clock.now().getTime();
          progressTimer = setInterval(() => {
            const waited = Math.round((deps.clock.now().getTime() - started) / 1000);
            say([`waiting for approval … (${waited} s)`]);
          }, deps.timings.progressMs);
        },
        signal: gone.signal,
      },
    );
    stopHolding();
    if (verdict.kind === 'gone') return;
    const body = spooled;
    if (verdict.kind === 'refuse') {
      if (body === null) await drain(ctx.body);
      if (!verdict.held) ctx.res.writeHead(200, RESULT_HEADERS);
      ctx.res.end(pushRefusal(updates, capabilities, verdict.status, verdict.lines));
      return;
    }
    if (body === null) {
      await forward(deps, gate, ctx, streamBody(ctx.body), undefined, verdict.push);
      return;
    }
    if (verdict.held) say(['approved; sending the push upstream …']);
    await forward(deps, gate, ctx, body.open(), body.length, verdict.push, verdict.held);
  } finally {
    stopHolding();
    if (spooling) await unlink(file).catch(() => {});
  }
}

/**
 * Sends the push upstream with the gateway's write credential and streams the answer back.
 * `headersSent`: the client already has our 200 and progress lines, so upstream's body follows
 * them and an upstream failure becomes a side-band error.
 */
async function forward(
  deps: GitGatewayDeps,
  gate: PushGate,
  ctx: PushContext,
  body: Readable,
  contentLength: number | undefined,
  push: GitPushRecord | null,
  headersSent = false,
): Promise<void> {
  const { res, req } = ctx;
  try {
    const upstream = await sendUpstream({
      baseUrl: deps.upstreamUrl,
      path: ctx.upstreamPath,
      method: 'POST',
      headers: upstreamHeaders(req.headers, {
        drop: ctx.decoded ? ['content-encoding', 'accept-encoding'] : ['accept-encoding'],
        contentLength,
      }),
      authorization: await deps.auth.authorization(ctx.repo, 'write'),
      body,
    });
    const status = upstream.statusCode ?? 502;
    if (status !== 200) {
      upstream.resume();
      deps.logger.warn({ runId: ctx.run.id, repo: ctx.repo, status }, 'upstream refused the push');
      if (push !== null) await gate.finish(push.id, 'refused', `upstream answered HTTP ${status}`);
      fail(ctx, headersSent, `the upstream git server answered HTTP ${status}`);
      return;
    }
    if (!headersSent) res.writeHead(200, { ...RESULT_HEADERS, ...pick(upstream.headers, ['content-type']) });
    const result: Buffer[] = [];
    let kept = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (kept >= REPORT_LIMIT) return;
      result.push(chunk);
      kept += chunk.length;
    });
    upstream.pipe(res, { end: false });
    await new Promise<void>((resolve) => upstream.on('end', resolve).on('error', () => resolve()));
    // Recorded before the client learns the outcome.
    if (push !== null) await gate.finish(push.id, 'forwarded');
    if (push !== null) await tellPushed(deps, ctx, Buffer.concat(result));
    res.end();
  } catch (error) {
    deps.logger.error({ err: error, runId: ctx.run.id, repo: ctx.repo }, 'forwarding the push failed');
    if (push !== null) await gate.finish(push.id, 'refused', 'the upstream git server could not be reached');
    fail(ctx, headersSent, 'the upstream git server could not be reached');
  }
}

/**
 * P21, P22: the refs upstream accepted, told before the client learns the outcome (so the
 * pushing turn goes on only once its check has moved to the pushed commit); bounded in time,
 * and a listener's failure is logged: it never fails the push.
 */
async function tellPushed(deps: GitGatewayDeps, ctx: PushContext, result: Buffer): Promise<void> {
  const { pushed } = deps;
  if (pushed === undefined) return;
  const { updates, capabilities } = ctx.body.commands;
  const accepted = acceptedRefs(result, usesSideBand(capabilities));
  const done = updates.filter((u) => accepted === null || accepted.has(u.ref));
  if (done.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const told = pushed({ run: ctx.run, repo: ctx.repo, updates: done }).catch((error: unknown) =>
    deps.logger.warn({ err: String(error), runId: ctx.run.id, repo: ctx.repo }, 'a push listener failed'),
  );
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.timings.pushedWaitMs ?? 10_000);
  });
  await Promise.race([told, late]);
  clearTimeout(timer);
}

function fail(ctx: PushContext, headersSent: boolean, message: string) {
  if (ctx.res.writableEnded) return;
  if (!headersSent) {
    ctx.res.writeHead(502, { 'content-type': 'text/plain' });
    ctx.res.end(`${message}\n`);
    return;
  }
  ctx.res.end(Buffer.concat([...band(3, `Summon: ${message}\n`), FLUSH]));
}

const pick = (headers: IncomingMessage['headers'], names: string[]): Record<string, string> =>
  Object.fromEntries(
    names.flatMap((n) => (typeof headers[n] === 'string' ? [[n, headers[n] as string]] : [])),
  );
