import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pushApprovalDetails } from '../../core/git/push-card';
import { resolveRunAction } from '../../core/git/push-policy';
import { sameUpdates } from '../../core/git/ref-updates';
import type { GitPushRecord } from '../../core/model/git-gateway';
import type { RunRecord } from '../../core/model/records';
import type { GitGatewayDeps } from './gateway-deps';
import { band, FLUSH } from './pkt-line';
import { progress, pushRefusal } from './push-refusal';
import { usesSideBand } from './receive-pack-commands';
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
 * G2, G4, G5 at the moment of the push: `allow` streams the push upstream; `deny` answers with
 * git's own refusal and sends nothing; `ask` spools the pack to disk, posts the approval card,
 * keeps the client informed, and forwards only the exact push that was approved.
 */
export async function handlePush(deps: GitGatewayDeps, ctx: PushContext): Promise<void> {
  const { updates, capabilities } = ctx.body.commands;
  if (updates.length === 0) {
    // git's 4-byte `0000` probe before a large push: no commands, nothing to decide.
    await forward(deps, ctx, streamBody(ctx.body), undefined, null);
    return;
  }
  const resolution = await resolveRunAction(deps.store, ctx.run, 'push_to_remote');
  const log = deps.logger.child({ runId: ctx.run.id, repo: ctx.repo });
  log.info({ updates, decision: resolution.decision }, 'push received');
  deps.metrics?.gatewayPush(resolution.decision);

  if (resolution.decision === 'deny') {
    await drain(ctx.body);
    await record(deps, ctx, {
      decision: 'deny',
      status: 'refused',
      reason: resolution.reason,
      approvalId: null,
    });
    ctx.res.writeHead(200, RESULT_HEADERS);
    ctx.res.end(
      pushRefusal(updates, capabilities, 'denied by guardrail push_to_remote', [
        `Summon: push to ${ctx.repo} refused.`,
        ...resolution.reason.split('\n'),
      ]),
    );
    return;
  }
  if (resolution.decision === 'allow') {
    const push = await record(deps, ctx, {
      decision: 'allow',
      status: 'forwarded',
      reason: resolution.reason,
      approvalId: null,
    });
    await forward(deps, ctx, streamBody(ctx.body), undefined, push);
    return;
  }
  // ask: an earlier identical push whose client went away may have been approved since.
  const released = await releaseAbandoned(deps, ctx);
  if (released !== null) {
    const push = await record(deps, ctx, {
      decision: 'ask',
      status: 'forwarded',
      reason: `released by the approval of an identical earlier push (${released.id})`,
      approvalId: released.approvalId,
    });
    await forward(deps, ctx, streamBody(ctx.body), undefined, push);
    return;
  }
  await askThenForward(deps, ctx);
}

async function askThenForward(deps: GitGatewayDeps, ctx: PushContext): Promise<void> {
  const { updates, capabilities } = ctx.body.commands;
  const file = path.join(deps.spoolDir, `push-${randomUUID()}.body`);
  try {
    const body: SpooledBody = await spool(ctx.body, file);
    const hasPack = body.length > ctx.body.commands.packOffset;
    const facts = await deps.inspector.inspect(
      ctx.repo,
      updates,
      hasPack ? () => body.openPack() ?? body.open() : null,
    );
    const details = pushApprovalDetails(ctx.repo, updates, facts);
    const approval = await deps.approvals
      .requestApproval({
        runId: ctx.run.id,
        action: 'push_to_remote',
        details,
        ...(deps.timings.approvalTtlMs === undefined ? {} : { ttlMs: deps.timings.approvalTtlMs }),
      })
      .catch((error: unknown) => {
        deps.logger.error({ err: error, runId: ctx.run.id, repo: ctx.repo }, 'could not ask for approval');
        return null;
      });
    if (approval === null) {
      // G2a: an ask that cannot reach anyone is a no.
      await record(deps, ctx, {
        decision: 'ask',
        status: 'refused',
        reason: 'the approval could not be posted',
        approvalId: null,
      });
      ctx.res.writeHead(200, RESULT_HEADERS);
      ctx.res.end(
        pushRefusal(updates, capabilities, 'approval could not be requested', [
          'Summon: this push needs approval, but the approval card could not be posted; nothing was sent.',
        ]),
      );
      return;
    }
    const push = await record(deps, ctx, {
      decision: 'ask',
      status: 'waiting',
      reason: details.summary,
      approvalId: approval.id,
    });
    const sideBand = usesSideBand(capabilities);
    ctx.res.writeHead(200, RESULT_HEADERS);
    const say = (lines: string[]) => {
      if (sideBand && !ctx.res.writableEnded) ctx.res.write(Buffer.concat(progress(lines)));
    };
    say([
      `Summon: ${details.summary}`,
      'waiting for approval … (an approval card was posted in the conversation)',
    ]);
    const outcome = await waitForDecision(deps, ctx, approval.id, say);
    if (outcome === 'gone') {
      await deps.store.transaction((tx) =>
        tx.gitPushes.setStatus(
          push.id,
          { status: 'abandoned', reason: 'the client went away while waiting' },
          'waiting',
        ),
      );
      return;
    }
    if (outcome !== 'allow') {
      const reason = outcome === 'expired' ? 'approval expired' : 'denied by approver';
      await finish(deps, push.id, 'refused', reason);
      ctx.res.end(
        pushRefusal(updates, capabilities, reason, [
          outcome === 'expired'
            ? 'Summon: nobody answered the approval card in time; the push was not sent.'
            : 'Summon: the push was denied on its approval card; nothing was sent.',
        ]),
      );
      return;
    }
    // G4: forwarding re-checks that the approval is bound to exactly this push.
    const bound = await deps.store.inWorkspace(ctx.run.workspaceId, async (tx) => ({
      approval: await tx.approvals.findById(approval.id),
      push: (await tx.gitPushes.listWaitingForRun(ctx.run.id)).find((p) => p.id === push.id) ?? null,
    }));
    if (
      bound.approval?.status !== 'approved' ||
      bound.push?.approvalId !== approval.id ||
      !sameUpdates(bound.push, { repo: ctx.repo, updates })
    ) {
      await finish(deps, push.id, 'refused', 'the approval does not match this push');
      ctx.res.end(pushRefusal(updates, capabilities, 'approval does not match this push', []));
      return;
    }
    say(['approved; sending the push upstream …']);
    await forward(deps, ctx, body.open(), body.length, push, true);
  } finally {
    await unlink(file).catch(() => {});
  }
}

/**
 * G4, T1: waits on the engine's approval wait (woken by the decision, no polling); tells the
 * client it is still waiting; a client that leaves ends the wait.
 */
async function waitForDecision(
  deps: GitGatewayDeps,
  ctx: PushContext,
  approvalId: string,
  say: (lines: string[]) => void,
): Promise<'allow' | 'denied' | 'expired' | 'gone'> {
  const gone = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) gone.abort();
  };
  ctx.res.once('close', onClose);
  if (ctx.res.destroyed) gone.abort();
  const started = deps.clock.now().getTime();
  const progressTimer = setInterval(() => {
    const waited = Math.round((deps.clock.now().getTime() - started) / 1000);
    say([`waiting for approval … (${waited} s)`]);
  }, deps.timings.progressMs);
  try {
    const outcome = await deps.approvals.awaitApproval(approvalId, gone.signal);
    return outcome === 'aborted' ? 'gone' : outcome;
  } finally {
    clearInterval(progressTimer);
    ctx.res.off('close', onClose);
  }
}

/** An abandoned push with exactly these updates whose approval has since been given; claimed once. */
async function releaseAbandoned(deps: GitGatewayDeps, ctx: PushContext): Promise<GitPushRecord | null> {
  const candidates = await deps.store.inWorkspace(ctx.run.workspaceId, (tx) =>
    tx.gitPushes.listAbandoned(ctx.run.id, ctx.repo),
  );
  for (const candidate of candidates) {
    if (candidate.approvalId === null) continue;
    if (!sameUpdates(candidate, { repo: ctx.repo, updates: ctx.body.commands.updates })) continue;
    if ((await deps.approvals.approvalState(candidate.approvalId)) !== 'allow') continue;
    const claimed = await deps.store.inWorkspace(ctx.run.workspaceId, (tx) =>
      tx.gitPushes.setStatus(candidate.id, { status: 'released', finishedAt: deps.clock.now() }, 'abandoned'),
    );
    if (claimed !== null) return claimed;
  }
  return null;
}

function record(
  deps: GitGatewayDeps,
  ctx: PushContext,
  fields: Pick<GitPushRecord, 'decision' | 'status' | 'reason' | 'approvalId'>,
): Promise<GitPushRecord> {
  return deps.store.inWorkspace(ctx.run.workspaceId, async (tx) => {
    const push = await tx.gitPushes.insert(ctx.run.workspaceId, {
      runId: ctx.run.id,
      repo: ctx.repo,
      updates: ctx.body.commands.updates,
      ...fields,
    });
    if (fields.status === 'refused') {
      return (
        (await tx.gitPushes.setStatus(push.id, { status: 'refused', finishedAt: deps.clock.now() })) ?? push
      );
    }
    return push;
  });
}

async function finish(deps: GitGatewayDeps, id: string, status: 'forwarded' | 'refused', reason?: string) {
  await deps.store.transaction((tx) =>
    tx.gitPushes.setStatus(id, {
      status,
      finishedAt: deps.clock.now(),
      ...(reason === undefined ? {} : { reason }),
    }),
  );
}

/**
 * Sends the push upstream with the gateway's write credential and streams the answer back.
 * `headersSent`: the client already has our 200 and progress lines, so upstream's body follows
 * them and an upstream failure becomes a side-band error.
 */
async function forward(
  deps: GitGatewayDeps,
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
      if (push !== null) await finish(deps, push.id, 'refused', `upstream answered HTTP ${status}`);
      fail(ctx, headersSent, `the upstream git server answered HTTP ${status}`);
      return;
    }
    if (!headersSent) res.writeHead(200, { ...RESULT_HEADERS, ...pick(upstream.headers, ['content-type']) });
    upstream.pipe(res, { end: false });
    await new Promise<void>((resolve) => upstream.on('end', resolve).on('error', () => resolve()));
    // Recorded before the client learns the outcome.
    if (push !== null) await finish(deps, push.id, 'forwarded');
    res.end();
  } catch (error) {
    deps.logger.error({ err: error, runId: ctx.run.id, repo: ctx.repo }, 'forwarding the push failed');
    if (push !== null) await finish(deps, push.id, 'refused', 'the upstream git server could not be reached');
    fail(ctx, headersSent, 'the upstream git server could not be reached');
  }
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
