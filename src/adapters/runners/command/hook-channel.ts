import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProcessSlots } from '../../../core/ports/process-slots';
import type { ToolAuthorization, ToolCall } from '../../../core/ports/turn-tools';
import { HOOK_PATH, preToolUseInputSchema, toToolCall } from './pre-tool-use-protocol';

const MAX_BODY_BYTES = 1_000_000;

export interface HookChannel {
  url: string;
  /** The loopback port of `url` (X2: forwarded into the agent's sandbox). */
  port: number;
  token: string;
  /** Decisions being waited for (an `ask` waits for a person): the silence watchdog pauses meanwhile. */
  readonly pending: number;
  close(): Promise<void>;
}

export type Authorize = (call: ToolCall, signal: AbortSignal) => Promise<ToolAuthorization>;

/** T1: the agent's run and the process slots it gives back while its hook waits. */
export interface HookRun {
  slots: ProcessSlots;
  runId: string;
}

/**
 * A9: the runner's side of the pre-tool-use hook: an HTTP server on 127.0.0.1 (a random port)
 * that answers only requests carrying this run's random token, with the guardrail decision for
 * the CLI agent's tool call. A decision still pending when the run ends is a denial (G2a).
 * T1: the agent is blocked on its hook meanwhile (an `ask` waits for a person), so its run
 * gives its process slot back while the decision is pending and takes one again, in turn,
 * before the agent hears it; a decision made at once finds the slot free unless others wait.
 */
export async function openHookChannel(
  authorize: Authorize,
  runSignal: AbortSignal,
  onSettled: () => void,
  run?: HookRun,
): Promise<HookChannel> {
  const token = randomBytes(24).toString('hex');
  let pending = 0;
  const server = createServer((request, response) => {
    void answer(request, response).catch(() => send(response, 500, { error: 'internal error' }));
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== 'POST' || request.url !== HOOK_PATH)
      return send(response, 404, { error: 'not found' });
    if (!tokenMatches(request.headers.authorization, token))
      return send(response, 401, { error: 'bad token' });
    const body = await readBody(request);
    if (body === null) return send(response, 413, { error: 'body too large' });
    let parsed: ReturnType<typeof preToolUseInputSchema.safeParse>;
    try {
      parsed = preToolUseInputSchema.safeParse(JSON.parse(body));
    } catch {
      return send(response, 400, { error: 'the body is not JSON' });
    }
    if (!parsed.success) return send(response, 400, { error: 'not a PreToolUse hook input' });
    // The hook process going away (Claude Code's hook timeout, the run killed) cancels the wait.
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    const signal = AbortSignal.any([runSignal, gone.signal]);
    pending += 1;
    let decision: ToolAuthorization;
    try {
      const call = toToolCall(parsed.data);
      const decide = () => authorize(call, signal);
      decision = await (run === undefined ? decide() : run.slots.suspendWhile(run.runId, decide, signal));
    } catch (error) {
      decision = {
        allowed: false,
        reason: `Summon could not decide on this call (${error instanceof Error ? error.message : String(error)}), so it is denied.`,
      };
    } finally {
      pending -= 1;
      onSettled();
    }
    if (signal.aborted && decision.allowed) decision = { allowed: false, reason: 'The run was stopped.' };
    send(response, 200, decision);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${HOOK_PATH}`,
    port,
    token,
    get pending() {
      return pending;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
